import type { FiguresState } from './figures.ts';
import { formatCount, html } from './dom.ts';
import { intlLocale, m } from '../i18n/messages.ts';

/** The part of a stats page's shell marked `data-part="{name}"`. */
export function part<E extends HTMLElement = HTMLElement>(root: HTMLElement, name: string): E {
  return root.querySelector<E>(`[data-part="${name}"]`)!;
}

/**
 * Shows where the figures stand: loading, could not be loaded (with its retry), or the
 * figures with the time they are from. True when there are figures to draw.
 */
export function showState(root: HTMLElement, state: FiguresState, refreshes: boolean): boolean {
  const figures = state.figures !== undefined;
  part(root, 'loading').hidden = figures || state.status !== 'loading';
  part(root, 'error').hidden = figures || state.status !== 'error';
  part(root, 'figures').hidden = !figures;
  if (figures) {
    const time = new Date(state.receivedAt!).toLocaleTimeString(intlLocale('en'), { hour: 'numeric', minute: '2-digit' });
    part(root, 'updated').textContent =
      state.status === 'error' ? m.stats_stale({ time }) : refreshes ? m.stats_as_of_refreshing({ time }) : m.stats_as_of({ time });
  }
  return figures;
}

/**
 * A table of figures: a caption, column headings, and rows; the cells of column `rowHeader`
 * head their rows, and columns of numbers are aligned right.
 */
export function figuresTable(caption: string, headings: string[], rows: Array<Array<string | number>>, rowHeader = 0): HTMLTableElement {
  const numeric = (i: number) => (typeof rows[0]?.[i] === 'number' ? 'number' : undefined);
  return html(
    'table',
    { class: 'figures-table' },
    html('caption', {}, caption),
    html('thead', {}, html('tr', {}, ...headings.map((heading, i) => html('th', { scope: 'col', class: numeric(i) }, heading)))),
    html(
      'tbody',
      {},
      ...rows.map((row) =>
        html(
          'tr',
          {},
          ...row.map((value, i) =>
            html(
              i === rowHeader ? 'th' : 'td',
              { scope: i === rowHeader ? 'row' : undefined, class: numeric(i) },
              typeof value === 'number' ? formatCount(value) : value,
            ),
          ),
        ),
      ),
    ),
  );
}
