import type { AstroIntegration } from 'astro';
import { loadAllSurveys, loadPrepopulation } from '../survey/loader.ts';

/**
 * Reads every survey's prepopulation when a build starts, so that a personal secret too weak
 * to guard a ballot (or a value naming no field) stops the build with the rule it broke. The
 * map itself goes nowhere: only the survey API reads it.
 */
export default function personalLinks(): AstroIntegration {
  return {
    name: 'peervote:personal-links',
    hooks: {
      'astro:config:setup': ({ logger }) => {
        const count = loadAllSurveys().reduce((n, survey) => n + Object.keys(loadPrepopulation(survey)).length, 0);
        logger.info(`personal links are strong enough (${count})`);
      },
    },
  };
}
