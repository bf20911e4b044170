import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { reportData, type ReportData } from '../../../src/results/report/report-data.ts';
import { reportHtml } from '../../../src/results/report/report-html.ts';
import { renderMarkdown } from '../../../src/results/report/markdown.ts';
import { methodologyText } from '../../../src/results/tally/methodology.ts';
import { excludeBallot, includeBallot } from '../../../src/results/tally/exclusions.ts';
import { ballotExclusions } from '../../../src/results/tally/tally.repository.ts';
import { tallySurvey } from '../../../src/results/tally/tally.ts';
import { DEFAULT_TALLY, EXCLUSION_REASONS, reasonsOf, type ExclusionReason } from '../../../src/results/tally/rules.ts';
import { auditTrail } from '../../../src/server/db/audit.repository.ts';
import { peerCheck, scratchDatabase, storeBallots } from '../../support/results-db.ts';
import { PEER_CHECK_BALLOTS } from '../../support/peer-check-ballots.ts';

const { survey, nominees, prepopulation } = peerCheck();
const projectId = survey.config.project_id;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];
let data: ReportData;

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storeBallots(db, PEER_CHECK_BALLOTS);
  await excludeBallot(db, { projectId, ballotId: ids[4], why: 'one of a <b>burst</b>', by: 'editor' });
  const clusters = [
    { kind: 'address_burst' as const, ballotIds: [ids[4], ids[7]], evidence: '2 ballots from one address <img src=x onerror=alert(1)>', score: 3.2 },
  ];
  data = await reportData(db, { survey, nominees, prepopulation, findClusters: async () => clusters, now: new Date('2030-02-01T10:00:00Z') });
});
afterAll(() => scratch?.close());

describe('exclude and include', () => {
  test('an exclusion needs a why, a ballot of the survey, and no earlier exclusion; nothing changes on a refusal', async () => {
    const trail = await auditTrail(db, projectId);
    await expect(excludeBallot(db, { projectId, ballotId: ids[0], why: '  ', by: 'x' })).rejects.toThrow('exclude needs --why');
    await expect(excludeBallot(db, { projectId, ballotId: 'no-such-ballot', why: 'w', by: 'x' })).rejects.toThrow(
      'There is no ballot "no-such-ballot" in this survey',
    );
    await expect(excludeBallot(db, { projectId: 'other', ballotId: ids[0], why: 'w', by: 'x' })).rejects.toThrow('There is no ballot');
    await expect(excludeBallot(db, { projectId, ballotId: ids[4], why: 'again', by: 'x' })).rejects.toThrow(
      `Ballot ${ids[4]} is excluded already (by editor at `,
    );
    await expect(includeBallot(db, { projectId, ballotId: ids[0], why: 'w', by: 'x' })).rejects.toThrow(
      `Ballot ${ids[0]} is not excluded; there is nothing to include.`,
    );
    expect(await auditTrail(db, projectId)).toEqual(trail);
    expect([...(await ballotExclusions(db, projectId)).keys()]).toEqual([ids[4]]);
  });

  test('exclude then include: two audit entries with who and why, and the ballot counts again', async () => {
    await excludeBallot(db, { projectId, ballotId: ids[0], why: 'test', by: 'ed' });
    expect((await ballotExclusions(db, projectId)).get(ids[0])).toMatchObject({ reason: 'test' });
    await includeBallot(db, { projectId, ballotId: ids[0], why: 'checked: a real voter', by: 'ed' });
    expect((await ballotExclusions(db, projectId)).has(ids[0])).toBe(false);
    const trail = (await auditTrail(db, projectId)).filter((row) => row.subject === ids[0]);
    expect(trail.map((row) => [row.actor, row.action, row.reason])).toEqual([
      ['ed', 'exclude', 'test'],
      ['ed', 'include', 'checked: a real voter'],
    ]);
  });
});

describe('the report', () => {
  test('its figures are the tally with the exclusions in force', async () => {
    const tally = await tallySurvey(db, { survey, nominees, prepopulation, excludedBallots: await ballotExclusions(db, projectId) });
    expect(data.tally.totals).toEqual(tally.totals);
    expect(data.tally.totals.excluded.operator_excluded).toBe(3);
    expect(data.ballotsExcluded).toBe(1);
    expect(data.votesExcluded).toBe(EXCLUSION_REASONS.reduce((n, r) => n + (tally.totals.excluded[r] ?? 0), 0));
    expect(data.exclusions.map((e) => [e.reason, e.votes])).toEqual(
      EXCLUSION_REASONS.filter((r) => tally.totals.excluded[r]).map((r) => [r, tally.totals.excluded[r]]),
    );
    expect(data.results.reduce((n, sub) => n + sub.counted, 0)).toBe(tally.totals.votesCounted);
    // Demo ballots are left out of the days, as on the stats page.
    expect(data.perDay).toEqual([{ day: '2030-01-01', ballots: 8 }]);
    expect(data.signals).toEqual([{ kind: 'address_burst', text: expect.any(String), clusters: 1, ballots: 2, strongest: 3.2 }]);
  });

  test('the HTML shows those figures, needs nothing from the network, and escapes every text', () => {
    const html = reportHtml({ ...data, title: 'Top <Docs> & "Co"' });
    const cards = [...html.matchAll(/<div class="card"><b>([\d,]+)<\/b><span>([^<]+)<\/span>/g)].map((m) => [m[2], Number(m[1].replaceAll(',', ''))]);
    const { totals } = data.tally;
    expect(cards).toEqual([
      ['ballots received', totals.ballots],
      ['ballots counted', totals.ballotsCounted],
      ['ballots not counted', totals.ballots - totals.ballotsCounted],
      ['votes counted', totals.votesCounted],
      ['votes excluded', data.votesExcluded],
      ['ballots excluded by an operator', 1],
    ]);
    for (const sub of data.results) {
      for (const row of sub.rows.filter((r) => r.counted))
        expect(html).toMatch(new RegExp(`${row.nomineeName}<div class="muted">${row.nomineeId}[^]*?<td class="n">${row.counted}</td>`));
    }
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\//i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<title>Top &lt;Docs&gt; &amp; &quot;Co&quot;: results report</title>');
    expect(html).toContain('@media print');
    expect(html).toContain(`<td class="ids">${ids[4]}</td><td>editor<div class="muted">`);
    expect(html).toContain('<td>one of a &lt;b&gt;burst&lt;/b&gt;</td>');
    expect(html).toContain('<h2>Methodology</h2><h3>How the votes of Peer Check are counted</h3>');
  });

  test('the methodology lists every rule, and the Markdown renderer lets no HTML through', () => {
    // The report prints the very text of `results methodology`, its title under the report's heading.
    expect(data.methodology).toBe(methodologyText(survey.config).replace(/^# /, '## '));
    const text = methodologyText(survey.config);
    const sentence: Partial<Record<ExclusionReason, string>> = {
      demo_ballot: 'Ballots sent from the demonstration link are not counted.',
      operator_excluded: 'A ballot an operator took out of the count after a review is not counted',
      duplicate_ballot: 'When one person sends more than one ballot',
      not_on_list: 'A nominee who is not on the nominee list is not counted',
      repeat_on_ballot: 'a nominee named twice in one sub-category on one ballot counts once',
      self_vote: 'A vote for oneself counts only when',
    };
    for (const reason of reasonsOf(survey.config.tally ?? DEFAULT_TALLY)) expect(text).toContain(sentence[reason]);
    expect(renderMarkdown('## A <b>\n\n- one `x<y`\n- **two**\n\nplain <script>alert(1)</script>')).toBe(
      '<h3>A &lt;b&gt;</h3>\n<ul><li>one <code>x&lt;y</code></li><li><strong>two</strong></li></ul>\n<p>plain &lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });
});
