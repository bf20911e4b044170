import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { listSurveySlugs, loadSite } from '../survey/config/loader.ts';
import { PUBLISHED_DOWNLOADS, hasPublishedResults, publishedDir, receiptShards } from '../survey/published/published-folder.ts';
import { formatProblem } from '../survey/errors.ts';
import { checkSummary, checkSurveys } from '../survey/config/survey-check.ts';

/**
 * Checks every survey when a build or the dev server starts, as `npm run check:surveys` does (one
 * check, src/survey/config/survey-check.ts): each survey.yaml, the nominee lists, personal links and mail
 * templates it names, and site.yaml. On any problem it prints them all, one a line with its file,
 * line and column, and stops, rather than a voter's search or a mailing meeting it. Then it leads
 * "/" to the default survey, which site.yaml names.
 */
export function surveyCheck(): AstroIntegration {
  return {
    name: 'peervote:survey-check',
    hooks: {
      'astro:config:setup': ({ logger, updateConfig }) => {
        const check = checkSurveys();
        if (check.problems.length) {
          console.error(check.problems.map((problem) => formatProblem(problem)).join('\n'));
          // Astro prints the message and the hint; the lines above say where, and a stack trace into this hook would say nothing more.
          throw Object.assign(new Error(checkSummary(check)), {
            hint: 'Each problem is listed above with its file, line and column; `npm run check:surveys` lists them again without a build.',
            stack: '',
          });
        }
        for (const warning of check.warnings) logger.warn(formatProblem(warning));
        logger.info(checkSummary(check));
        updateConfig({ redirects: { '/': `/${loadSite().default_survey}/` } });
      },
    },
  };
}

/**
 * Copies every published results folder (surveys/<slug>/results/) into the built site beside
 * its results page, byte for byte, and writes the page's receipt lookup files from the ledger
 * (`receipts/<two hex digits>.json`).
 */
export function publishedResults(): AstroIntegration {
  return {
    name: 'peervote:published-results',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const published = listSurveySlugs().filter((slug) => hasPublishedResults(slug));
        for (const slug of published) {
          const target = new URL(`${slug}/results/`, dir);
          mkdirSync(new URL('receipts/', target), { recursive: true });
          for (const name of PUBLISHED_DOWNLOADS) {
            const file = path.join(publishedDir(slug), name);
            if (existsSync(file)) copyFileSync(file, new URL(name, target));
          }
          const ledger = path.join(publishedDir(slug), 'ledger.jsonl');
          for (const [shard, entries] of existsSync(ledger) ? await receiptShards(ledger) : []) {
            writeFileSync(new URL(`receipts/${shard}.json`, target), JSON.stringify(entries));
          }
        }
        if (published.length) logger.info(`published results copied beside their pages (${published.join(', ')})`);
      },
    },
  };
}
