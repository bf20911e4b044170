/**
 * Whether a pointer press (a mouse button or a finger) is under way, so that something about to
 * appear on the page waits until the tap has landed: a message that pushed the next control
 * down between the press and the release would make the tap miss it.
 */

let deferred: Array<() => void> = [];
let pressing = false;

if (!import.meta.env.SSR && typeof document !== 'undefined') {
  let safety: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    clearTimeout(safety);
    // The click that ends the press runs first; then what the press held back shows.
    setTimeout(() => {
      pressing = false;
      const waiting = deferred;
      deferred = [];
      for (const reveal of waiting) reveal();
    }, 0);
  };
  document.addEventListener(
    'pointerdown',
    () => {
      pressing = true;
      clearTimeout(safety);
      safety = setTimeout(release, 1000);
    },
    true,
  );
  // A click ends a press; a press that turns into a scroll is cancelled.
  window.addEventListener('click', release);
  document.addEventListener('pointercancel', release, true);
}

/** Runs `reveal` now, or after the pointer press under way ends, so nothing moves under a tap. */
export function afterPress(reveal: () => void): void {
  if (pressing) deferred.push(reveal);
  else reveal();
}
