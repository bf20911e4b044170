// The islands the ballot hydrates once the page has painted (`client:painted`), gathered in one module so that the browser
// fetches them in one request instead of one each (Astro names each island's export in its tag).
// Reservations stay apart: their code loads only as they come near the screen.
export { default as BallotFields } from './fields/BallotFields.tsx';
export { NominationsSection as Nominations } from './nominations/NominationsSection.tsx';
export { default as WriteIns } from './writeins/WriteIns.tsx';
export { default as SubmitBar } from './submit/SubmitBar.tsx';

import { startBallotPage } from './page.ts';

// The page's own code (link state, drafts, kept ballots) starts with the islands, once the page has painted.
if (!import.meta.env.SSR) startBallotPage();
