/** A stored time as the console shows it: `2027-03-01 09:30 UTC`; empty for none. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? '' : `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A count with thousands separated: `12,345`. */
export function count(value: number): string {
  return value.toLocaleString('en');
}

/** A role map in words: `owner of top-doctors-demo, auditor of every survey`. */
export function rolesInWords(roles: Readonly<Record<string, string>>): string {
  const words = Object.entries(roles).map(([slug, role]) => `${role} of ${slug === '*' ? 'every survey' : slug}`);
  return words.length ? words.join(', ') : 'no role yet';
}
