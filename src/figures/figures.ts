import { atom } from 'nanostores';
import { apiUrl } from '../survey/api/api-replies.ts';

/** How often an open stats page asks for its figures again. */
const REFRESH_MS = 60_000;

/** A stats page's figures: the last ones received (kept when a later request fails) and how the last request went. */
export interface FiguresState {
  status: 'loading' | 'ready' | 'error';
  figures?: unknown;
  /** When `figures` arrived (ms since the epoch). */
  receivedAt?: number;
}

/** The figures of the stats page in view; each page shows one set. */
export const $figures = atom<FiguresState>({ status: 'loading' });

/** Asks the survey API for the figures once; on failure the last figures stay, marked not current. */
export async function loadFigures(path: string): Promise<void> {
  $figures.set({ ...$figures.get(), status: 'loading' });
  try {
    const response = await fetch(apiUrl(path), { cache: 'no-store', credentials: 'omit' });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    $figures.set({ status: 'ready', figures: await response.json(), receivedAt: Date.now() });
  } catch (error) {
    console.error(error);
    $figures.set({ ...$figures.get(), status: 'error' });
  }
}

/**
 * Loads the figures now and again every `every` ms while the page is open: not while it is
 * hidden, and at once when it is shown again after missing a turn.
 */
export function watchFigures(path: string, every = REFRESH_MS): void {
  void loadFigures(path);
  const due = () => document.visibilityState !== 'hidden' && Date.now() - ($figures.get().receivedAt ?? 0) >= every - 1000;
  setInterval(() => due() && void loadFigures(path), every);
  document.addEventListener('visibilitychange', () => due() && void loadFigures(path));
}
