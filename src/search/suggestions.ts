import { map } from 'nanostores';
import { SEARCH_DEBOUNCE_MS, slotOptionalFilters, type NomineeHit, type SearchSettings } from '../survey/nominees/nominee-search.ts';
import { parseSlotName } from '../survey/ballots/ballot-keys.ts';
import type { NomineeSearchClient } from './search-client.ts';
import type { NomineeSearch } from './instant-search.ts';

/** The suggestions of the nomination input in use: one input at a time has them. */
export interface SuggestionsState {
  /** The slot whose input the suggestions belong to. */
  slot?: string;
  query: string;
  /** `waiting`: typing or asking; `done`: hits are those of `query`; `error`: the search failed. */
  status: 'idle' | 'waiting' | 'done' | 'error';
  hits: NomineeHit[];
  nbHits: number;
  /** The highlighted suggestion, -1 for none. */
  active: number;
  open: boolean;
}

const CLOSED: SuggestionsState = { query: '', status: 'idle', hits: [], nbHits: 0, active: -1, open: false };

/** The suggestions shown under the focused nomination input. */
export const $suggestions = map<SuggestionsState>({ ...CLOSED });

type ClientLoader = (settings: SearchSettings) => Promise<NomineeSearchClient>;

let settings: SearchSettings | undefined;
let loader: ClientLoader | undefined;
let search: Promise<NomineeSearch> | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let sequence = 0;

/** Sets the survey's search settings; a test may also hand in its own backend. Nothing is fetched yet. */
export function configureSearch(given: SearchSettings, load?: ClientLoader): void {
  settings = given;
  if (load) loader = load;
  search = undefined;
}

/**
 * Loads the search code and starts the page's one InstantSearch instance, once: called when a
 * voter first focuses a nomination input; every slot then shares it.
 */
export function prepareSearch(): Promise<NomineeSearch> {
  if (!settings) return Promise.reject(new Error('configureSearch() must run before a nomination input is used'));
  const given = settings;
  search ??= import('./instant-search.ts')
    .then(async ({ createNomineeSearch }) => createNomineeSearch(given, loader && (await loader(given))))
    .catch((error: unknown) => {
      search = undefined;
      throw error;
    });
  return search;
}

/** Asks the search for one slot's suggestions: the slot's sub-category ranks its nominees first, on either backend. */
async function ask(slot: string, query: string) {
  const nominees = await prepareSearch();
  const subcategory = parseSlotName(slot)?.subcategory;
  return nominees.ask({ query, ...(subcategory ? { optionalFilters: slotOptionalFilters(subcategory) } : {}) });
}

/** The voter picked a suggestion: with Algolia, Insights hears of it as a click and a conversion. */
export function reportPick(hit: NomineeHit): void {
  void search?.then((nominees) => nominees.picked(hit)).catch(() => undefined);
}

/** True when two names are the same, case, accents, apostrophes and spacing aside ("zoe  nguyen" is "Zoë Nguyen"). */
function sameName(a: string, b: string): boolean {
  const plain = (text: string) =>
    text
      .replace(/[\u2019\u02bc`\u00b4]/g, "'")
      .replace(/\s+/g, ' ')
      .trim();
  return plain(a).localeCompare(plain(b), 'en', { sensitivity: 'base' }) === 0;
}

/** The one hit whose name is the text; none when no hit or several hits are. */
export function uniqueExactHit(hits: readonly NomineeHit[], text: string): NomineeHit | undefined {
  const exact = text.trim() ? hits.filter((hit) => sameName(hit.name, text)) : [];
  return exact.length === 1 ? exact[0] : undefined;
}

/**
 * The nominee whose name is exactly `text`, if one alone is: from the suggestions on screen
 * when they are for this text, else by asking the search.
 */
export async function findExactNominee(slot: string, text: string): Promise<NomineeHit | undefined> {
  const query = text.trim();
  if (!query) return undefined;
  const current = $suggestions.get();
  if (current.slot === slot && current.status === 'done' && current.query === query) return uniqueExactHit(current.hits, query);
  try {
    return uniqueExactHit((await ask(slot, query)).hits, query);
  } catch {
    return undefined;
  }
}

async function run(slot: string, query: string, ticket: number): Promise<void> {
  try {
    const result = await ask(slot, query);
    if (ticket !== sequence) return;
    $suggestions.set({ slot, query, status: 'done', hits: result.hits, nbHits: result.nbHits, active: -1, open: true });
  } catch (error) {
    if (ticket !== sequence) return;
    console.error(error);
    $suggestions.set({ ...$suggestions.get(), status: 'error', open: true });
  }
}

/** The voter typed in a slot: asks for suggestions once typing pauses for 300 ms (docs/spec.md, "Nominations"). */
export function typeQuery(slot: string, text: string): void {
  clearTimeout(timer);
  const ticket = ++sequence;
  const query = text.trim();
  if (!query) {
    $suggestions.set({ ...CLOSED, slot });
    return;
  }
  const current = $suggestions.get();
  // Earlier suggestions stay on screen while the next ones are on their way.
  $suggestions.set({ ...current, slot, status: 'waiting', open: current.slot === slot && current.open });
  timer = setTimeout(() => void run(slot, query, ticket), SEARCH_DEBOUNCE_MS);
}

/** Moves the highlight by `step` (wrapping around), opening the list if it was closed with hits. */
export function moveActive(step: number): void {
  const state = $suggestions.get();
  if (!state.hits.length) return;
  if (!state.open) return $suggestions.set({ ...state, open: true, active: step > 0 ? 0 : state.hits.length - 1 });
  const count = state.hits.length;
  const from = state.active < 0 ? (step > 0 ? -1 : count) : state.active;
  $suggestions.setKey('active', (((from + step) % count) + count) % count);
}

/** Highlights one suggestion (the pointer is over it). */
export function setActive(index: number): void {
  $suggestions.setKey('active', index);
}

/**
 * Hides the suggestions (Escape), keeping those on screen for the arrow keys to show again, and
 * forgets any search still on its way: its answer, when it comes, does not open them again.
 */
export function hideSuggestions(): void {
  clearTimeout(timer);
  sequence++;
  const state = $suggestions.get();
  // The hits kept are those of the last answered query: `done` again, unless none had come.
  const status = state.status === 'waiting' ? (state.hits.length > 0 ? 'done' : 'idle') : state.status;
  $suggestions.set({ ...state, status, open: false, active: -1 });
}

/** Forgets the suggestions of a slot the voter left, and any search still on its way. */
export function closeSuggestions(slot: string): void {
  if ($suggestions.get().slot !== slot) return;
  clearTimeout(timer);
  sequence++;
  $suggestions.set({ ...CLOSED });
}
