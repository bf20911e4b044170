/** A tile's identifier in a ballot and in look-ups: its `slug`, else its title in lower-case words joined by dashes. */
export function tileSlug(tile: { title: string; slug?: string }): string {
  if (tile.slug) return tile.slug;
  return tile.title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
