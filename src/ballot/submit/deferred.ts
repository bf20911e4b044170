/**
 * The ballot's code that no first paint needs, loaded as one chunk with one preload list
 * (src/ballot/submit/submit-state.ts says when): the drafts, the submit flow, and the thank-you view
 * an offline submit shows in place. One chunk rather than three keeps the page's first load
 * within its JavaScript budget.
 */
export { clearMyAnswers, freshAfterSubmit, startDrafts } from '../drafts/draft.ts';
export { submitBallot } from './submission.ts';
export { startThanksInPlace } from '../../thanks/in-place.ts';
