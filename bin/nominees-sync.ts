// Pushes a survey's nominee list to its Algolia index, replacing every record.
//
//   ALGOLIA_ADMIN_KEY=… npm run nominees:sync -- <slug>
//
// The survey's algolia_app_id and algolia_index say where; the key must be an admin key or
// one with addObject, deleteIndex and editSettings rights: never the search-only key of
// survey.yaml, which reaches every voter's browser.
import { loadSurvey, listSurveySlugs } from '../src/survey/config/loader.ts';
import { loadNominees, nomineeFile } from '../src/survey/nominees/nominee-file.ts';
import { ConfigError, quoted } from '../src/survey/errors.ts';
import { syncNominees } from '../src/server/search/algolia-sync.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const [slug] = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
if (!slug) fail(`Usage: npm run nominees:sync -- <survey slug>\nThe surveys are: ${listSurveySlugs().join(', ')}`);
if (!listSurveySlugs().includes(slug)) fail(`There is no survey ${quoted(slug)}. The surveys are: ${listSurveySlugs().join(', ')}`);

try {
  const survey = loadSurvey(slug);
  const { algolia_app_id: appId, algolia_index: indexName } = survey.config;
  const adminKey = process.env.ALGOLIA_ADMIN_KEY;
  const missing = [
    !appId && '  - algolia_app_id in survey.yaml: your Algolia application id',
    !indexName && '  - algolia_index in survey.yaml: the index the survey searches',
    !survey.config.algolia_api_key && "  - algolia_api_key in survey.yaml: a search-only key, for voters' browsers",
    !adminKey &&
      '  - ALGOLIA_ADMIN_KEY in the environment: an admin key (or one allowed to addObject, deleteIndex and editSettings);\n    it writes the index, so it never goes in survey.yaml',
    !survey.config.nominees && '  - nominees in survey.yaml: the nominee list file to push',
  ].filter(Boolean);
  if (missing.length) {
    fail(
      `Cannot push the nominees of ${slug} to Algolia; missing:\n${missing.join('\n')}\nWithout Algolia keys the survey uses the built-in search, which needs no push.`,
    );
  }
  const nominees = loadNominees(survey);
  console.log(`Pushing ${nominees.length.toLocaleString('en')} nominees from ${nomineeFile(survey)} to ${appId} / ${indexName}`);
  await syncNominees({ appId: appId!, adminKey: adminKey!, indexName: indexName!, nominees });
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  fail(`Algolia refused the push: ${(error as Error).message}`);
}
