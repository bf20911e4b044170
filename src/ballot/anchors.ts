import { askWriteInFocus } from './writeins/writeins.ts';

/** A DOM id made of a slot name. */
export function slotId(slot: string): string {
  return `nomination-${slot
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/-+$/, '')
    .toLowerCase()}`;
}

/** The id of the write-in section, which the empty-result link leads to. */
export const WRITE_INS_ID = 'write-ins';

/**
 * Scrolls to the write-in section and asks the write-ins island, through its store, to put focus
 * on its 'Add Write-In' button, so that a voter who found nobody can add the name by hand.
 * False when the page has no write-in section: the link then does what links do.
 */
export function goToWriteIns(): boolean {
  const section = document.getElementById(WRITE_INS_ID);
  if (!section) return false;
  section.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  askWriteInFocus();
  return true;
}
