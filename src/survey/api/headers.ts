/**
 * Headers every page and API answer carries. `no-referrer` keeps a personal link's secret out
 * of the Referer header of any request the page makes; the rest is the usual hardening: no
 * type sniffing, no framing, no powerful features, a browsing context of its own, HTTPS only
 * once a browser has seen the site over HTTPS (`bin/serve.mjs` sends that one only over HTTPS).
 */
export function staticHeaders(): Record<string, string> {
  return {
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Strict-Transport-Security': 'max-age=31536000',
  };
}

/** The Content-Security-Policy of the survey API's answers: JSON that loads nothing and that nothing frames. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The Content-Security-Policy of the images under `/media/` (and the favicon): an SVG opened on
 * its own is a document, which could run script or load from elsewhere; this one runs nothing,
 * loads nothing but its own inline styles, and is sandboxed.
 */
export const MEDIA_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** What a page's header policy adds to its <meta> policy: directives a <meta> cannot carry. */
export const HEADER_ONLY_DIRECTIVES: Record<string, string[]> = { 'frame-ancestors': ["'none'"] };

/**
 * A policy's directives, in order: name → sources. A later directive of the same name is left
 * out, as a browser ignores it.
 */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name && !directives.has(name)) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/**
 * One policy that allows whatever any of `policies` allows, directive by directive: the
 * policy of a survey's whole folder, from each of its pages' policies. `'none'` gives way
 * to any source, and `'unsafe-inline'` drops the hashes that would switch it off.
 */
export function mergePolicies(policies: string[], extra: Record<string, string[]> = {}): string {
  const merged = new Map<string, Set<string>>();
  for (const directives of [...policies.map(parsePolicy), new Map(Object.entries(extra))]) {
    for (const [name, sources] of directives) {
      const set = merged.get(name) ?? new Set<string>();
      sources.forEach((source) => set.add(source));
      merged.set(name, set);
    }
  }
  return [...merged]
    .map(([name, set]) => {
      let sources = [...set];
      if (sources.length > 1) sources = sources.filter((source) => source !== "'none'");
      if (sources.includes("'unsafe-inline'")) sources = sources.filter((source) => !/^'(sha(256|384|512)|nonce)-/.test(source));
      return `${name} ${sources.join(' ')}`;
    })
    .join('; ');
}
