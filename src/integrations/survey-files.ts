import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { listSurveySlugs, loadAllSurveys, loadPrepopulation } from '../survey/loader.ts';
import { PUBLISHED_DOWNLOADS, hasPublishedResults, publishedDir, receiptShards } from '../survey/published-folder.ts';
import { loadNominees } from '../survey/nominee-file.ts';
import { loadMailTemplates } from '../survey/mail-templates.ts';

/**
 * Reads and validates every survey's nominee list when a build or the dev server starts, so
 * that a bad row fails there, naming file, line and column, rather than on a voter's search.
 */
export function nomineeLists(): AstroIntegration {
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

/**
 * Reads every survey's prepopulation when a build starts, so that a personal secret too weak
 * to guard a ballot (or a value naming no field) stops the build with the rule it broke. The
 * map itself goes nowhere: only the survey API reads it.
 */
export function personalLinks(): AstroIntegration {
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

/**
 * Reads every survey's mail templates (`mail/invitation.md`, `reminder.md`, `receipt.md`) when a
 * build starts, so that an unknown placeholder or an invitation without `{{url}}` stops it with
 * the file and line, rather than a send to twenty thousand people.
 */
export function mailTemplates(): AstroIntegration {
  return {
    name: 'peervote:mail-templates',
    hooks: {
      'astro:config:setup': ({ logger }) => {
        const own = loadAllSurveys().flatMap((survey) =>
          Object.values(loadMailTemplates(survey.dir))
            .filter((template) => template.source !== 'built-in')
            .map((template) => `${survey.slug}/${template.kind}`),
        );
        logger.info(`mail templates are valid (${own.length ? own.join(', ') : 'built-in defaults'})`);
      },
    },
  };
}
