import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { create } from 'superstruct';
import { TallyConfig } from '../../../src/survey/config/tally.struct.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { ConfigError } from '../../../src/survey/errors.ts';
import { methodologyText } from '../../../src/results/tally/methodology.ts';
import { tallyDigest } from '../../../src/results/tally/tally-digest.ts';
import { FIXTURE_SURVEYS, peerCheck } from '../../support/results-db.ts';

const SURVEYS = path.resolve(import.meta.dirname, '../../../surveys');
const scratch = mkdtempSync(path.join(tmpdir(), 'peervote-methodology-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('results methodology', () => {
  test("the demo survey's methodology, word for word", () => {
    expect(methodologyText(loadSurvey('top-doctors-demo', SURVEYS).config)).toBe(`# How the votes of Top Doctors 2027 are counted

- Each voter may name up to 3 nominees in each sub-category.
- Every counted vote is worth one point, whichever slot it fills.
- Nominees written in by voters count once the editors have matched them to a nominee on the list or added them as new nominees.
- Ballots sent from the demonstration link are not counted.
- A ballot an operator took out of the count after a review is not counted; the audit trail keeps who decided, when and why.
- When one person sends more than one ballot, recognised by the same personal link, the same email address (in any case) or the same license number (letters and digits compared), only the first ballot received counts.
- A nominee who is not on the nominee list is not counted, and a nominee named twice in one sub-category on one ballot counts once.
- A vote for oneself counts only when the same ballot names at least 2 other nominees in that sub-category whose practice is known and differs from the voter's.
- A vote for a colleague of the voter's own practice counts like any other.
- Within each sub-category nominees are ranked by points; nominees with the same points share a place, listed by name.
- The number published per sub-category is decided by the editors from the ranking.
`);
  });

  test('every setting reads as its own sentence', () => {
    const tally = create(
      {
        self_vote: { rule: 'exclude' },
        same_practice: 'outside_match',
        subcategory_match: { rule: 'exclude' },
        region_match: { rule: 'flag', voter_field: 'region' },
        points: [3, 2, 1],
        duplicates: ['email'],
        min_votes: 5,
        min_share: 2.5,
        publish: { top: 10, ties: 'exclude' },
      },
      TallyConfig,
    );
    const lines = methodologyText({ project_id: 'x', survey_title: 'Best Lawyers', votes_per_category: 3, workplace_field: 'firm', tally }).split('\n');
    expect(lines).toEqual([
      '# How the votes of Best Lawyers are counted',
      '',
      '- Each voter may name up to 3 nominees in each sub-category.',
      '- A counted vote is worth 3 points for a first choice, 2 points for a second choice and 1 point for a third choice; a write-in matched to a nominee is worth 1 point.',
      '- Nominees written in by voters count once the editors have matched them to a nominee on the list or added them as new nominees.',
      '- Ballots sent from the demonstration link are not counted.',
      '- A ballot an operator took out of the count after a review is not counted; the audit trail keeps who decided, when and why.',
      '- When one person sends more than one ballot, recognised by the same email address (in any case), only the first ballot received counts.',
      '- A nominee who is not on the nominee list is not counted, and a nominee named twice in one sub-category on one ballot counts once.',
      '- A vote for a nominee whose specialty on the nominee list is not the sub-category they were named in is not counted.',
      '- A vote for a nominee whose city on the nominee list is not the region the voter gave is counted and marked for the editors to review.',
      '- A vote for oneself is never counted.',
      "- A vote for a colleague of the voter's own practice counts only when the same ballot names at least one nominee outside that practice in the sub-category.",
      '- Within each sub-category nominees are ranked by points; nominees with the same points share a place, listed by name.',
      '- The top 10 of each sub-category are published; when nominees tie for the last place, none of them is published.',
      '- A nominee needs at least 5 counted votes to be published.',
      '- A nominee must be named on at least 2.5% of the counted ballots that vote in the sub-category to be published.',
      '',
    ]);
  });

  test.each([
    ['no screening', { duplicates: [] }, 'Ballots are not screened for duplicates: every ballot received counts.'],
    [
      'one outsider',
      { self_vote: { outside_votes: 1 } },
      'A vote for oneself counts only when the same ballot names at least 1 other nominee in that sub-category',
    ],
    ['colleagues excluded', { same_practice: 'exclude' }, "A vote for a colleague of the voter's own practice is not counted."],
    [
      'ties included',
      { publish: { top: 3 } },
      'The top 3 of each sub-category are published; when nominees tie for the last place, all of them are published.',
    ],
  ])('%s', (_, block, sentence) => {
    expect(methodologyText({ project_id: 'x', votes_per_category: 3, workplace_field: 'w', tally: create(block, TallyConfig) })).toContain(sentence);
  });
});

describe('the tally: block is validated like the rest of survey.yaml', () => {
  /** A copy of peer-check with `tally:` appended; answers the load's error or config. */
  function load(block: string) {
    const dir = mkdtempSync(path.join(scratch, 'survey-'));
    cpSync(path.join(FIXTURE_SURVEYS, 'peer-check'), path.join(dir, 'peer-check'), { recursive: true });
    const file = path.join(dir, 'peer-check', 'survey.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\ntally:\n${block}\n`);
    try {
      return loadSurvey('peer-check', dir).config.tally;
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  }

  test.each([
    ['an unknown rule', '  self_vote: { rule: sometimes }', 'tally.self_vote.rule', 'expected one of "exclude", "outside_votes", got "sometimes"'],
    ['a misspelt key', '  same_practise: exclude', 'tally.same_practise', 'is not a known key: check its spelling, or remove it'],
    ['a share over 100', '  min_share: 150', 'tally.min_share', ''],
    ['points that are not whole', '  points: [3, 1.5]', 'tally.points[1]', 'expected a whole number, got 1.5'],
    ['a key twice', '  duplicates: [email, email]', 'tally.duplicates', 'lists a key twice: name each of secret, email and license at most once'],
    ['a list column that is not one', '  subcategory_match: { rule: flag, nominee_field: license }', 'tally.subcategory_match.nominee_field', ''],
    [
      'a region rule without its field',
      '  region_match: { rule: exclude }',
      'tally.region_match.voter_field',
      "must name a field of the layout that holds the voter's region when the rule is exclude",
    ],
    ['a region field not in the layout', '  region_match: { rule: flag, voter_field: region }', 'tally.region_match.voter_field', 'there is no field "region"'],
  ])('%s: a build error with the key path', (_, block, where, message) => {
    const problems = load(block) as Array<{ path: string; message: string }>;
    expect(Array.isArray(problems)).toBe(true);
    expect(problems.find((p) => p.path === where)?.message).toContain(message);
  });

  test('a valid block resolves with the defaults filled in', () => {
    expect(load('  points: [3, 2, 1]\n  region_match: { rule: flag, voter_field: medical-practice, nominee_field: practice }')).toMatchObject({
      points: [3, 2, 1],
      region_match: { rule: 'flag', voter_field: 'medical-practice', nominee_field: 'practice' },
      self_vote: { rule: 'outside_votes', outside_votes: 2 },
    });
  });
});

describe('the configuration digest', () => {
  const { survey, nominees } = peerCheck();

  test('the digest reads the rules and the list by content: keys in another order at any depth, or left undefined, change nothing', () => {
    const reversed = <T>(value: T): T =>
      Array.isArray(value)
        ? (value.map(reversed) as T)
        : value && typeof value === 'object'
          ? (Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reversed(v)]),
            ) as T)
          : value;
    const tally = create({ points: [3, 2, 1] }, TallyConfig);
    const config = { ...survey.config, tally };
    expect(
      tallyDigest(
        reversed(config),
        nominees.map((n) => ({ ...reversed(n), skip: undefined })),
      ),
    ).toEqual(tallyDigest(config, nominees));
  });

  test('the same rules and list give the same digest, in any order of the list; any change gives another', () => {
    const digest = tallyDigest(survey.config, nominees);
    expect(digest.config).toMatch(/^[0-9a-f]{64}$/);
    expect(digest.short).toBe(digest.config.slice(0, 12));
    expect(tallyDigest(survey.config, [...nominees].reverse())).toEqual(digest);
    const tally = create({ points: [3, 2, 1] }, TallyConfig);
    expect(tallyDigest({ ...survey.config, tally }, nominees).config).not.toBe(digest.config);
    const renamed = nominees.map((n) => (n.id === 'c-2' ? { ...n, practice: 'Elsewhere' } : n));
    expect(tallyDigest(survey.config, renamed).nominees).not.toBe(digest.nominees);
    expect(tallyDigest(survey.config, renamed).config).not.toBe(digest.config);
  });

  test("the demo survey's written-out block is the defaults: the same digest as no block", () => {
    const demo = loadSurvey('top-doctors-demo', SURVEYS);
    const list = loadNominees(demo);
    expect(tallyDigest(demo.config, list)).toEqual(tallyDigest({ ...demo.config, tally: create({}, TallyConfig) }, list));
  });
});
