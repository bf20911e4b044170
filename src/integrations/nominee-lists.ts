import type { AstroIntegration } from 'astro';
import { loadAllSurveys } from '../survey/loader.ts';
import { loadNominees } from '../survey/nominee-file.ts';

/**
 * Reads and validates every survey's nominee list when a build or the dev server starts, so
 * that a bad row fails there, naming file, line and column, rather than on a voter's search.
 */
export default function nomineeLists(): AstroIntegration {
  return {
    name: 'peervote:nominee-lists',
    hooks: {
      'astro:config:setup': ({ logger }) => {
        const counts = loadAllSurveys().map((survey) => `${survey.slug} ${loadNominees(survey).length}`);
        logger.info(`nominee lists are valid (${counts.join(', ')})`);
      },
    },
  };
}
