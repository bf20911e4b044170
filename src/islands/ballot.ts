// The islands the ballot hydrates as the page loads, gathered in one module so that the browser
// fetches them in one request instead of one each (Astro names each island's export in its tag).
// Reservations stay apart: their code loads only as they come near the screen.
export { default as BallotFields } from './BallotFields.tsx';
export { NominationsSection as Nominations } from './nominations/NominationsSection.tsx';
export { default as WriteIns } from './WriteIns.tsx';
export { default as SubmitBar } from './SubmitBar.tsx';
