import { renderMarkdown } from './markdown.ts';
import { escapeHtml as esc } from '../../server/html-page.ts';
import { perDayChart, voteBar } from './report-charts.ts';
import type { ReportData } from './report-data.ts';
import { EXCLUSION_REASONS } from '../tally/rules.ts';
import { strength } from '../signals/signal-model.ts';

/** Nominees shown per sub-category; the rest are summed in one line. */
const NOMINEES_SHOWN = 25;
/** Signal clusters listed one by one; the rest are counted in the summary. */
const CLUSTERS_SHOWN = 30;

const fmt = (n: number) => n.toLocaleString('en');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const words = (reason: string) => reason.replaceAll('_', ' ');

const STYLE = `
:root{--ink:#1b2430;--muted:#5b6675;--line:#d9dee5;--accent:#1f5fa8;--accent-soft:#e8f0fa;--warn:#a4461b;--hatch:#b9c6d6;--paper:#fff}
*{box-sizing:border-box}
body{margin:0;background:#f4f6f9;color:var(--ink);font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:960px;margin:0 auto;padding:32px 24px 64px}
header.top{border-bottom:3px solid var(--accent);padding-bottom:16px;margin-bottom:24px}
.embargo{display:inline-block;font-size:12px;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:var(--warn);border:1px solid var(--warn);border-radius:3px;padding:2px 8px}
h1{font-size:28px;line-height:1.2;margin:10px 0 4px}
h2{font-size:20px;margin:0 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:18px 0 8px}
.meta,.muted{color:var(--muted);font-size:13px}
section{background:var(--paper);border:1px solid var(--line);border-radius:6px;padding:20px 24px;margin:0 0 20px}
.cards{display:grid;grid-template-columns:repeat(3,1fr);gap:12px;margin-bottom:16px}
.card{border:1px solid var(--line);border-radius:6px;padding:12px 14px;background:#fafbfc}
.card b{display:block;font-size:24px;line-height:1.2;font-variant-numeric:tabular-nums}
.card span{color:var(--muted);font-size:13px}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
td.n,th.n{text-align:right;white-space:nowrap}
td.rank{width:3em;color:var(--muted)}
td.bar-cell{width:34%;vertical-align:middle}
.chart{width:100%;height:auto;display:block}
.chart .bar,.vote-bar .bar{fill:var(--accent)}
.vote-bar .bar-excluded{fill:var(--hatch)}
.vote-bar{width:100%;height:12px;display:block}
.chart .grid{stroke:var(--line);stroke-width:1}
.chart .tick{font-size:11px;fill:var(--muted)}
.legend{font-size:12px;color:var(--muted);margin:4px 0 0}
.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px;vertical-align:-1px}
.sub{break-inside:avoid;page-break-inside:avoid;margin-bottom:22px}
.strength{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;border-radius:3px;padding:1px 6px}
.strength.high{background:#fbe3d9;color:var(--warn)}.strength.medium{background:#fdf1d6;color:#7a5a00}.strength.low{background:#eef1f5;color:var(--muted)}
.ids{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted);word-break:break-all}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef1f5;padding:0 3px;border-radius:3px}
.methodology p,.methodology li{max-width:72ch}
footer{color:var(--muted);font-size:12px;text-align:center}
@media (max-width:600px){main{padding:16px 10px}section{padding:14px 12px}.cards{grid-template-columns:repeat(2,1fr);gap:8px}.card b{font-size:20px}.bar-cell{display:none}th,td{padding:5px 4px;font-size:13px}th{font-size:10px}h1{font-size:22px}}
@media print{
  @page{size:A4;margin:16mm 14mm}
  body{background:#fff;font-size:11pt}
  main{max-width:none;padding:0}
  section{border:0;border-radius:0;padding:0;margin:0 0 14pt}
  h2{break-after:avoid;page-break-after:avoid}
  tr,.card,.chart{break-inside:avoid;page-break-inside:avoid}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}`;

function responses(data: ReportData): string {
  const { totals } = data.tally;
  const cards = [
    [totals.ballots, 'ballots received'],
    [totals.ballotsCounted, 'ballots counted'],
    [totals.ballots - totals.ballotsCounted, 'ballots not counted'],
    [totals.votesCounted, 'votes counted'],
    [data.votesExcluded, 'votes excluded'],
    [data.ballotsExcluded, 'ballots excluded by an operator'],
  ]
    .map(([n, label]) => `<div class="card"><b>${fmt(n as number)}</b><span>${label}</span></div>`)
    .join('');
  const pending = totals.writeInsPending
    ? `<p class="muted">${fmt(totals.writeInsPending)} write-ins await a decision and are not counted yet; ${fmt(totals.writeInsRejected)} were rejected.</p>`
    : '';
  return `<section id="responses"><h2>Responses</h2><div class="cards">${cards}</div>${pending}<h3>Ballots per day (UTC, demo ballots left out)</h3>${perDayChart(data.perDay)}</section>`;
}

function subcategories(data: ReportData): string {
  const parts = data.results.map((sub) => {
    const rows = sub.rows.filter((row) => row.counted > 0 || EXCLUSION_REASONS.some((r) => row.excluded[r]));
    const total = (row: (typeof rows)[number]) => EXCLUSION_REASONS.reduce((n, r) => n + (row.excluded[r] ?? 0), 0);
    const scale = Math.max(1, ...rows.map((row) => row.counted + total(row)));
    const shown = rows.slice(0, NOMINEES_SHOWN);
    const body = shown
      .map((row) => {
        const excluded = total(row);
        const why = EXCLUSION_REASONS.filter((r) => row.excluded[r])
          .map((r) => `${row.excluded[r]} ${words(r)}`)
          .join(', ');
        return `<tr><td class="rank">${row.rank ?? '–'}</td><td>${esc(row.nomineeName || row.nomineeId)}<div class="muted">${esc([row.nomineeId, row.practice].filter(Boolean).join(' · '))}</div></td><td class="bar-cell">${voteBar(row.counted, excluded, scale)}</td><td class="n">${fmt(row.counted)}</td><td class="n">${pct(row.share)}</td><td class="n" title="${esc(why)}">${fmt(excluded)}</td></tr>`;
      })
      .join('');
    const rest = rows.length - shown.length;
    const more =
      rest > 0
        ? `<tr><td></td><td colspan="5" class="muted">and ${fmt(rest)} more nominees with ${fmt(rows.slice(NOMINEES_SHOWN).reduce((n, row) => n + row.counted, 0))} counted votes</td></tr>`
        : '';
    const table = rows.length
      ? `<table><thead><tr><th>#</th><th>Nominee</th><th class="bar-cell"></th><th class="n">Counted</th><th class="n">Share</th><th class="n">Excluded</th></tr></thead><tbody>${body}${more}</tbody></table>`
      : '<p class="muted">No votes.</p>';
    return `<div class="sub"><h3>${esc(sub.group)} / ${esc(sub.subcategory)}</h3><p class="muted">${fmt(sub.counted)} votes counted, ${fmt(sub.excluded)} excluded</p>${table}</div>`;
  });
  return `<section id="results"><h2>Results by sub-category</h2><p class="legend">Bars:<i style="background:var(--accent)"></i>counted votes<i style="background:var(--hatch)"></i>excluded votes</p>${parts.join('')}</section>`;
}

/** Operators' exclusions listed one by one; the rest are counted. */
const OPERATOR_EXCLUSIONS_SHOWN = 50;

function operatorExclusions(data: ReportData): string {
  if (!data.operatorExclusions.length) return '';
  const rows = data.operatorExclusions
    .slice(0, OPERATOR_EXCLUSIONS_SHOWN)
    .map(
      (row) =>
        `<tr><td class="ids">${esc(row.ballot_id)}</td><td>${esc(row.excluded_by)}<div class="muted">${esc(row.excluded_at.replace('T', ' ').slice(0, 16))} UTC</div></td><td>${esc(row.reason)}</td></tr>`,
    )
    .join('');
  const rest = data.operatorExclusions.length - OPERATOR_EXCLUSIONS_SHOWN;
  return `<h3>Ballots excluded by an operator</h3><table><thead><tr><th>Ballot</th><th>By</th><th>Why</th></tr></thead><tbody>${rows}</tbody></table>${rest > 0 ? `<p class="muted">and ${fmt(rest)} more (npm run results -- audit ${esc(data.slug)}).</p>` : ''}`;
}

function exclusions(data: ReportData): string {
  if (!data.exclusions.length) return '<section id="exclusions"><h2>Exclusions by reason</h2><p>No vote was excluded.</p></section>';
  const max = Math.max(...data.exclusions.map((e) => e.votes));
  const rows = data.exclusions
    .map(
      (e) =>
        `<tr><td><strong>${esc(words(e.reason))}</strong><div class="muted">${esc(e.text)}</div></td><td class="bar-cell">${voteBar(e.votes, 0, max)}</td><td class="n">${fmt(e.votes)}</td></tr>`,
    )
    .join('');
  return `<section id="exclusions"><h2>Exclusions by reason</h2><table><thead><tr><th>Reason</th><th class="bar-cell"></th><th class="n">Votes</th></tr></thead><tbody>${rows}</tbody></table>${operatorExclusions(data)}</section>`;
}

function signals(data: ReportData): string {
  if (!data.signals.length) return '<section id="signals"><h2>Fraud signals</h2><p>No cluster of ballots reached a signal\'s threshold.</p></section>';
  const summary = data.signals
    .map(
      (s) =>
        `<tr><td><strong>${esc(words(s.kind))}</strong><div class="muted">${esc(s.text)}</div></td><td class="n">${fmt(s.clusters)}</td><td class="n">${fmt(s.ballots)}</td><td class="n"><span class="strength ${strength(s.strongest)}">${strength(s.strongest)}</span></td></tr>`,
    )
    .join('');
  const listed = data.clusters.slice(0, CLUSTERS_SHOWN).map((c) => {
    const ids = c.ballotIds.length > 12 ? `${c.ballotIds.slice(0, 12).join(' ')} … and ${c.ballotIds.length - 12} more` : c.ballotIds.join(' ');
    return `<tr><td><span class="strength ${strength(c.score)}">${strength(c.score)}</span></td><td>${esc(words(c.kind))}</td><td>${esc(c.evidence)}<div class="ids">${esc(ids)}</div></td></tr>`;
  });
  const rest = data.clusters.length - listed.length;
  return `<section id="signals"><h2>Fraud signals</h2><p class="muted">Flags for an operator to look at, not verdicts: only an operator's exclusion takes a ballot out of the count.</p><table><thead><tr><th>Signal</th><th class="n">Clusters</th><th class="n">Ballots</th><th class="n">Strongest</th></tr></thead><tbody>${summary}</tbody></table><h3>Clusters, strongest first</h3><table><tbody>${listed.join('')}</tbody></table>${rest > 0 ? `<p class="muted">and ${fmt(rest)} more clusters (npm run results -- signals ${esc(data.slug)}).</p>` : ''}</section>`;
}

/**
 * The results report as one self-contained HTML document: inline CSS and SVG, no script, no
 * font or image to fetch, so it opens offline and prints well. Every text from the survey,
 * the nominee list or a voter is escaped.
 */
export function reportHtml(data: ReportData): string {
  const audit = data.latestAudit ? ` Operators' decisions up to ${esc(data.latestAudit.at)} (audit ${esc(data.latestAudit.id)}).` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="robots" content="noindex"><title>${esc(data.title)}: results report</title><style>${STYLE}</style></head>
<body><main>
<header class="top"><span class="embargo">Embargoed: not for publication</span><h1>${esc(data.title)}</h1><div class="meta">Results report for <code>${esc(data.slug)}</code>, generated ${esc(data.generatedAt.replace('T', ' ').slice(0, 16))} UTC.${audit}</div></header>
${responses(data)}
${subcategories(data)}
${exclusions(data)}
${signals(data)}
<section id="methodology" class="methodology"><h2>Methodology</h2>${renderMarkdown(data.methodology)}</section>
<footer>Generated by Peervote's results tool. Figures are counted votes after the rules and operators' exclusions.</footer>
</main></body></html>
`;
}
