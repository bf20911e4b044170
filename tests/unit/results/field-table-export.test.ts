import { afterAll, beforeAll, expect, test } from 'vitest';
import { parse } from 'csv-parse/sync';
import { exportBallots } from '../../../src/results/export/export.ts';
import { personalFieldNames } from '../../../src/results/voters/purge.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { allFields, ballotSlots } from '../../../src/survey/config/layout.ts';
import { categoryKey } from '../../../src/survey/ballots/ballot-keys.ts';
import { answerNames, exportColumns, isKind, type FieldKind } from '../../../src/survey/config/fields.ts';
import { FIXTURE_SURVEYS, scratchDatabase } from '../../support/results-db.ts';

// The operator's export and purge read a survey's fields the way the field table says: these
// hold them to it, on the survey that has a field of every type.
const survey = loadSurvey('kitchen-sink', FIXTURE_SURVEYS);
const fields = allFields(survey.config.layout);
const columnsOf = (kind: FieldKind) => fields.filter((field) => isKind(field, kind)).flatMap(exportColumns);
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;

beforeAll(async () => {
  scratch = await scratchDatabase();
});
afterAll(() => scratch?.close());

test('the CSV export has the columns the field table gives each kind, and a pair per slot of ballotSlots', async () => {
  let csv = '';
  await exportBallots(scratch.db, { survey, nominees: [], format: 'csv', write: (text) => void (csv += text) });
  const [header] = parse(csv) as string[][];
  const slots = ballotSlots(survey.config).flatMap(({ group, subcategory, slot }) => [
    `${categoryKey(group, subcategory)} #${slot} id`,
    `${categoryKey(group, subcategory)} #${slot} name`,
  ]);
  const writeIns = Array.from({ length: survey.config.write_in_limit }, (_, i) => [
    `write-in #${i + 1} name`,
    `write-in #${i + 1} category`,
    `write-in #${i + 1} nominee_id`,
  ]).flat();
  expect(columnsOf('answer')).toContain('interests[other-answer]');
  expect(header).toEqual([
    'ballot_id',
    'submitted_at',
    'link',
    'personal_secret',
    'status',
    'verified_email',
    ...columnsOf('answer'),
    ...slots,
    ...writeIns,
    ...columnsOf('reservation'),
    ...columnsOf('file'),
  ]);
});

test('purge-personal removes the stored answers of the personal fields, by the names the table stores them under', () => {
  // Every field marked personal: the workplace is still kept, and a checkbox's 'Other' text goes with it.
  const layout = survey.config.layout.map((row) => row.map((field) => ({ ...field, personal: true })));
  const allPersonal = { ...survey, config: { ...survey.config, layout } };
  const expected = allFields(layout)
    .filter((field) => field.personal && field.name !== survey.config.workplace_field)
    .flatMap(answerNames);
  expect(expected).toContain('interests[other-answer]');
  expect(expected).not.toContain(survey.config.workplace_field);
  expect(personalFieldNames(allPersonal)).toEqual(expected);
});
