// The anchors a check of a survey's trail is given from outside the database: the entry its
// published results name. `audit --verify` and the console's "Check the chain" both take them
// from here, so that the two checks are the same.
import path from 'node:path';
import { publicationAnchor, type ChainAnchor } from './audit-chain.ts';
import { hasPublishedResults, readPublished } from '../../survey/published/published-folder.ts';
import { surveysDir } from '../../survey/config/loader.ts';

/**
 * The anchor a survey's publication sets (audit-chain.ts, publicationAnchor), named after its
 * results.json; none when the survey is not published or its results name no entry. Throws with
 * the file's name when results.json cannot be read.
 */
export function publishedAnchor(slug: string, dir: string = surveysDir()): ChainAnchor | undefined {
  if (!hasPublishedResults(slug, dir)) return undefined;
  const published = readPublished(slug, dir);
  return publicationAnchor(published.results, `the published results (${path.join(slug, 'results', 'results.json')})`);
}
