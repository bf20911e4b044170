// What bin/serve.mjs reads of the sources: the survey API's route table, the console's pages and its settings, as the
// API itself reads them. The build bundles this file (src/integrations/cli-bundle/), so that a
// server starts without loading Node's TypeScript stripper; the sources run while none is fresh.
export { API_ROUTES, CONSOLE_PAGE_SAMPLES, sampleAddress } from '../../src/server/routes.ts';
export { readServerConfig } from '../../src/server/config.ts';
