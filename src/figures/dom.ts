import { intlLocale } from '../i18n/messages.ts';
/** Attributes of an element made here; undefined leaves one out. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** A child: an element, or text, which is set as text and never read as HTML (workplace names come from voters). */
export type Child = Node | string;

function build<E extends Element>(element: E, attributes: Attributes, children: Child[]): E {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children);
  return element;
}

/** Makes an HTML element with attributes and children. */
export function html<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  return build(document.createElement(tag), attributes, children);
}

/** Makes an SVG element with attributes and children. */
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  return build(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes, children);
}

/** Writes a number as people read it: 1,234. */
export function formatCount(n: number): string {
  return n.toLocaleString(intlLocale('en'));
}

/** Writes a day (`YYYY-MM-DD`, UTC) as people read it: Mar 1, 2030. */
export function formatDay(day: string, withYear = true): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(intlLocale('en'), { month: 'short', day: 'numeric', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' });
}
