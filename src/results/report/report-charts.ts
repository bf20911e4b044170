import { escapeHtml } from '../../server/html-page.ts';

const fmt = (n: number) => n.toLocaleString('en');

/** A column chart of ballots per day as inline SVG, with a text alternative; scales to its container. */
export function perDayChart(days: ReadonlyArray<{ day: string; ballots: number }>): string {
  if (!days.length) return '<p class="muted">No ballots yet.</p>';
  const width = 720;
  const height = 200;
  const left = 44;
  const bottom = 28;
  const top = 12;
  const max = Math.max(...days.map((d) => d.ballots));
  const step = niceStep(max);
  const ceiling = Math.max(step, Math.ceil(max / step) * step);
  const plotW = width - left - 8;
  const plotH = height - top - bottom;
  const slot = plotW / days.length;
  const bar = Math.max(1, Math.min(28, slot * 0.7));
  const y = (v: number) => top + plotH - (v / ceiling) * plotH;
  const grid: string[] = [];
  for (let v = 0; v <= ceiling; v += step) {
    grid.push(
      `<line x1="${left}" x2="${width - 8}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/><text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" class="tick">${fmt(v)}</text>`,
    );
  }
  const labelEvery = Math.ceil(days.length / 10);
  const bars = days.map((d, i) => {
    const x = left + i * slot + (slot - bar) / 2;
    const label =
      i % labelEvery === 0
        ? `<text x="${(x + bar / 2).toFixed(1)}" y="${height - 10}" text-anchor="middle" class="tick">${escapeHtml(d.day.slice(5))}</text>`
        : '';
    return `<rect x="${x.toFixed(1)}" y="${y(d.ballots).toFixed(1)}" width="${bar.toFixed(1)}" height="${(top + plotH - y(d.ballots)).toFixed(1)}" class="bar"><title>${escapeHtml(d.day)}: ${fmt(d.ballots)} ballots</title></rect>${label}`;
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="Ballots per day, ${escapeHtml(days[0].day)} to ${escapeHtml(days[days.length - 1].day)}">${grid.join('')}${bars.join('')}</svg>`;
}

/** A step for a chart's grid lines: 1, 2 or 5 times a power of ten, four or five lines up to `max`. */
function niceStep(max: number): number {
  if (max <= 5) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
}

/** One horizontal bar as inline SVG: counted votes solid, excluded votes hatched after them, against the row's scale. */
export function voteBar(counted: number, excluded: number, scale: number): string {
  const w = (n: number) => (scale ? (n / scale) * 100 : 0);
  const excludedBar = excluded ? `<rect x="${w(counted).toFixed(2)}" y="0" width="${w(excluded).toFixed(2)}" height="10" class="bar-excluded"/>` : '';
  return `<svg class="vote-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect x="0" y="0" width="${w(counted).toFixed(2)}" height="10" class="bar"/>${excludedBar}</svg>`;
}
