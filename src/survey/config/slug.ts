import { quoted } from '../errors.ts';

/**
 * The first segments of the site's own addresses, which no survey may take: the API, the
 * operators' console, the Spanish pages, the accessibility statement, the images of public/media
 * and Astro's built assets.
 * The top-level pages and files of a checkout (src/pages/, public/) are reserved as well; the
 * command that makes a survey adds them.
 */
export const RESERVED_SLUGS = ['accessibility', 'api', 'console', 'es', 'media', '_astro'] as const;

/** The longest slug: a folder name and an address segment that reads whole. */
const MAX_SLUG_LENGTH = 60;

/**
 * Why a survey folder's name cannot be a slug, in one sentence for its author, or undefined when
 * it can: a slug is written as it is into every address of the survey (`/{slug}/…`), the static
 * hosts' rules and the server's patterns, so it is lowercase letters and digits, words joined by
 * single hyphens, and none of the site's own first segments.
 */
export function slugProblem(slug: string, reserved: Iterable<string> = RESERVED_SLUGS): string | undefined {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) {
    return `${quoted(slug)} cannot be a slug: use lowercase letters and digits, words joined by single hyphens, such as peer-vote-2027`;
  }
  if (slug.length > MAX_SLUG_LENGTH) return `${quoted(slug)} cannot be a slug: it is longer than ${MAX_SLUG_LENGTH} characters`;
  if ([...reserved].includes(slug)) return `${quoted(slug)} cannot be a slug: the site has an address /${slug} of its own`;
  return undefined;
}
