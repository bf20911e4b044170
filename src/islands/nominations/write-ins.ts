/** The id of the write-in section, which the empty-result link leads to. */
export const WRITE_INS_ID = 'write-ins';

/**
 * Scrolls to the write-in section and puts focus on its 'Add Write-In' button (or on the
 * section itself), so that a voter who found nobody can add the name by hand.
 */
export function goToWriteIns(): boolean {
  const section = document.getElementById(WRITE_INS_ID);
  if (!section) return false;
  const button = [...section.querySelectorAll<HTMLElement>('button, [role="button"]')].find((el) => /add write-in/i.test(el.textContent ?? ''));
  section.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  const target = button ?? section;
  if (!button && !section.hasAttribute('tabindex')) section.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  return true;
}
