/**
 * The ballot's code that no first paint needs, loaded as one chunk with one preload list
 * (loadDeferred in src/ballot/store.ts, the page's store, says when): the drafts, the submit
 * flow after its checks, and the thank-you view an offline submit shows in place. One chunk rather
 * than three keeps the page's first load within its JavaScript budget. Nothing here imports the
 * page's store: what this code needs sits beneath it.
 */
export { clearMyAnswers, saveDraftNow, startDrafts } from '../drafts/draft.ts';
export { deliverBallot } from './submission.ts';
export { startThanksInPlace } from '../../thanks/in-place.ts';
