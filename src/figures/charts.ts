import { formatCount, svg } from './dom.ts';

/** One bar of a chart: its label, its value, and whether it stands for the rest ("Other"), drawn muted. */
export interface Bar {
  label: string;
  value: number;
  muted?: boolean;
}

const PLOT_HEIGHT = 140;
const TOP = 22;
const BOTTOM = 24;
const ROW = 42;
/** The share of the width a bar may take; the rest is room for its value. */
const BAR_SHARE = 82;

const percent = (n: number) => `${Math.round(n * 1000) / 1000}%`;

/**
 * A column chart: one column per point, left to right (ballots per day). Drawn in CSS pixels
 * and percentages rather than a scaled viewBox, so its words stay readable on a phone.
 * `summary` is what a screen reader hears in its place; the page gives the numbers as a table too.
 */
export function columnChart(points: Bar[], summary: string): SVGElement {
  const max = Math.max(1, ...points.map((point) => point.value));
  const slot = 100 / Math.max(points.length, 7);
  const showValues = points.length <= 14;
  const labelled = new Set(points.length <= 7 ? points.map((_, i) => i) : [0, points.length - 1]);
  const chart = svg('svg', { class: 'chart chart-columns', role: 'img', 'aria-label': summary, width: '100%', height: TOP + PLOT_HEIGHT + BOTTOM });
  const baseline = TOP + PLOT_HEIGHT;
  points.forEach((point, i) => {
    const height = Math.round((point.value / max) * PLOT_HEIGHT);
    const center = percent(slot * (i + 0.5));
    chart.append(svg('rect', { x: percent(slot * (i + 0.15)), width: percent(slot * 0.7), y: baseline - height, height, rx: 2 }));
    if (showValues && point.value > 0) chart.append(svg('text', { x: center, y: baseline - height - 6, 'text-anchor': 'middle' }, formatCount(point.value)));
    if (labelled.has(i)) {
      const anchor = points.length <= 7 ? 'middle' : i === 0 ? 'start' : 'end';
      const x = anchor === 'middle' ? center : i === 0 ? percent(slot * 0.15) : percent(slot * (i + 0.85));
      chart.append(svg('text', { x, y: baseline + 17, 'text-anchor': anchor, class: 'chart-axis' }, point.label));
    }
  });
  if (!showValues) chart.append(svg('text', { x: 0, y: 14, class: 'chart-axis' }, `${formatCount(max)} at most`));
  chart.append(svg('line', { x1: 0, x2: '100%', y1: baseline + 0.5, y2: baseline + 0.5, class: 'chart-baseline' }));
  return chart;
}

/**
 * A horizontal bar chart: per row its label, then its bar with the value beside it. Labels
 * longer than `maxLabel` characters are shortened; the page's table has them in full.
 */
export function barChart(rows: Bar[], summary: string, maxLabel = 40): SVGElement {
  const max = Math.max(1, ...rows.map((row) => row.value));
  const chart = svg('svg', { class: 'chart chart-bars', role: 'img', 'aria-label': summary, width: '100%', height: rows.length * ROW });
  rows.forEach((row, i) => {
    const top = i * ROW;
    const share = (row.value / max) * BAR_SHARE;
    const label = row.label.length > maxLabel ? `${row.label.slice(0, maxLabel - 1)}…` : row.label;
    chart.append(
      svg('text', { x: 0, y: top + 14 }, label),
      svg('rect', { x: 0, y: top + 20, width: percent(share), height: 14, rx: 2, class: row.muted ? 'is-muted' : undefined }),
      svg('text', { x: percent(share), dx: row.value > 0 ? 6 : 0, y: top + 32, class: 'chart-value' }, formatCount(row.value)),
    );
  });
  return chart;
}
