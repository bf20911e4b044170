// Run by context-accessors.test.ts with --expose-gc and `inline` or `shared`: how many bytes a
// request's objects leave in the old generation after two young collections, when its context's
// getters are written inline (as Astro writes them) or are the shared accessors. Prints the
// figure. One process for each: V8 learns from the first which allocations to make old at once.
import v8 from 'node:v8';
import { actionContext, type RequestState, setAstroParts } from '../../../src/integrations/context-accessors/accessors.ts';

declare const gc: (options?: { type: 'minor' | 'major' }) => void;

setAstroParts({
  localsReassigned() {
    throw new Error('locals reassigned');
  },
  originPathname: () => '/',
  runtimeLogger: (logger) => logger,
});

const REQUESTS = 1000;
const oldGeneration = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;

/** A request's state with some weight to it, as a ballot's is: its request, its parsed fields. */
function requestState(): RequestState {
  const fields = Array.from({ length: 100 }, (_, n) => ({ name: `field ${n}`, value: n }));
  return {
    locals: { fields },
    cookies: {},
    request: new Request('https://vote.example/api/survey'),
    logger: { warn() {} },
    getClientAddress: () => '192.0.2.7',
    computeCurrentLocale: () => undefined,
    computePreferredLocale: () => undefined,
    computePreferredLocaleList: () => undefined,
    getCsp: () => undefined,
    resolve: () => undefined,
  };
}

const contexts = {
  inline: (state: RequestState) => ({
    get cookies() {
      return state.cookies;
    },
    routePattern: '/api/survey',
    get clientAddress() {
      return state.getClientAddress();
    },
    get locals() {
      return state.locals;
    },
  }),
  shared: (state: RequestState) =>
    actionContext(state, {
      routePattern: '/api/survey',
      isPrerendered: false,
      generator: 'Astro',
      params: {},
      request: state.request,
      site: undefined,
      url: new URL(state.request.url),
    }),
};

const makeContext = contexts[process.argv[2] as keyof typeof contexts];
if (!makeContext) throw new Error(`Say which context to make: ${Object.keys(contexts).join(' or ')}.`);
const handle = async () => {
  const context = makeContext(requestState());
  await null;
  return context.clientAddress;
};
for (let n = 0; n < REQUESTS; n++) await handle();
gc();
gc();
const before = oldGeneration();
for (let n = 0; n < REQUESTS; n++) await handle();
gc({ type: 'minor' });
gc({ type: 'minor' });
console.log(Math.round((oldGeneration() - before) / REQUESTS));
