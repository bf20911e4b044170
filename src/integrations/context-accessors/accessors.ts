// The accessors of Astro's per-request context objects, as the server build uses them in place
// of Astro's own (./index.ts rewrites astro/dist/core/fetch/fetch-state.js to call these).
//
// Astro gives the render options, the endpoint's context and a page's `Astro` accessors written
// inline (`get locals() { return state.locals; }`): new getter functions for every request. V8
// then gives every such object a hidden class of its own, kept in the old generation, and that
// class holds the getters, which hold the request's whole state: the Request, the Response, the
// middleware's and the endpoint's objects. The young generation's collections cannot see that
// the class is dead, so all of it is copied and promoted, about 12 KB a request, until the next
// full collection. Here each accessor is one function for all requests, reading the request's
// state from the object it is called on; the objects keep their properties, in the same order,
// with the same attributes and values.

/** What the accessors read of Astro's per-request state (its FetchState). */
export interface RequestState {
  readonly locals: unknown;
  readonly cookies: unknown;
  readonly request: Request;
  readonly logger: { warn(label: string, message: string): void };
  getClientAddress(): string;
  computeCurrentLocale(): string | undefined;
  computePreferredLocale(): string | undefined;
  computePreferredLocaleList(): string[] | undefined;
  getCsp(): unknown;
  resolve(key: string): unknown;
}

/** What the accessors need of Astro's own modules, handed over once by the rewritten module. */
export interface AstroParts {
  /** Throws Astro's error for code that assigns `locals` on the context. */
  localsReassigned(): never;
  /** The address first asked for, before any rewrite. */
  originPathname(request: Request): string;
  /** The integration logger a context hands out for Astro's own. */
  runtimeLogger(logger: RequestState['logger']): unknown;
}

/**
 * Where a context object keeps its request's state: a string key, not enumerable, so that
 * spreads, `Object.keys` and JSON never see it, and a copy made from the object's own
 * descriptors (Astro's actions make one) keeps it.
 */
export const STATE_KEY = '__peervoteRequestState';

let parts: AstroParts | undefined;

/** Hands over the parts of Astro the accessors call; the rewritten module does so as it loads. */
export function setAstroParts(given: AstroParts): void {
  parts = given;
}

function astroParts(): AstroParts {
  if (!parts) throw new Error('The context accessors were used before Astro handed over its parts.');
  return parts;
}

function stateOf(target: object): RequestState {
  return (target as Record<string, RequestState>)[STATE_KEY];
}

function keepState(target: object, state: RequestState): void {
  if (!Object.hasOwn(target, STATE_KEY)) Object.defineProperty(target, STATE_KEY, { value: state });
}

/** An enumerable, configurable accessor, as an object literal's getter is: one function for every object. */
function reading(read: (state: RequestState) => unknown): PropertyDescriptor {
  return {
    get(this: object) {
      return read(stateOf(this));
    },
    enumerable: true,
    configurable: true,
  };
}

const LOCALS = reading((state) => state.locals);

/** The endpoint context's accessors, as Astro declares them. */
const CONTEXT = {
  cookies: reading((state) => state.cookies),
  clientAddress: reading((state) => state.getClientAddress()),
  currentLocale: reading((state) => state.computeCurrentLocale()),
  locals: {
    ...LOCALS,
    set(_: unknown) {
      astroParts().localsReassigned();
    },
  },
  preferredLocale: reading((state) => state.computePreferredLocale()),
  preferredLocaleList: reading((state) => state.computePreferredLocaleList()),
  originPathname: reading((state) => astroParts().originPathname(state.request)),
  csp: reading((state) => state.getCsp()),
  logger: reading((state) => astroParts().runtimeLogger(state.logger)),
} satisfies Record<string, PropertyDescriptor>;

/** The requests whose code has been told once that no session storage is configured. */
const toldNoSession = new WeakSet<RequestState>();

/** `session` where no session provider is registered: undefined, with Astro's warning once a request. */
const NO_SESSION: PropertyDescriptor = {
  get(this: object) {
    const state = stateOf(this);
    if (state && !toldNoSession.has(state)) {
      toldNoSession.add(state);
      state.logger.warn(
        'session',
        '`Astro.session` was accessed but no session storage is configured. Either configure the storage manually or use an adapter that provides session storage. For more information, see https://docs.astro.build/en/guides/sessions/',
      );
    }
    return undefined;
  },
  enumerable: true,
  configurable: true,
};

/** One accessor per provider's key (a handful, fixed by the pipeline), made at its first use. */
const providerAccessors = new Map<string, PropertyDescriptor>();

function providerAccessor(key: string): PropertyDescriptor {
  let accessor = providerAccessors.get(key);
  if (!accessor) {
    accessor = reading((state) => state.resolve(key));
    providerAccessors.set(key, accessor);
  }
  return accessor;
}

/** Gives the render options `locals`, read from the request's state. */
export function renderOptions(options: object, state: RequestState): void {
  keepState(options, state);
  Object.defineProperty(options, 'locals', LOCALS);
}

/** The values of an endpoint's context that are not read from the request's state. */
export interface ContextValues {
  routePattern: string;
  isPrerendered: boolean;
  generator: string;
  params: unknown;
  request: Request;
  site: URL | undefined;
  url: URL;
}

/** An endpoint's context (Astro's ActionAPIContext): its properties in Astro's order, the accessors shared. */
export function actionContext(state: RequestState, values: ContextValues): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  keepState(context, state);
  Object.defineProperty(context, 'cookies', CONTEXT.cookies);
  context.routePattern = values.routePattern;
  context.isPrerendered = values.isPrerendered;
  Object.defineProperty(context, 'clientAddress', CONTEXT.clientAddress);
  Object.defineProperty(context, 'currentLocale', CONTEXT.currentLocale);
  context.generator = values.generator;
  Object.defineProperty(context, 'locals', CONTEXT.locals);
  context.params = values.params;
  Object.defineProperty(context, 'preferredLocale', CONTEXT.preferredLocale);
  Object.defineProperty(context, 'preferredLocaleList', CONTEXT.preferredLocaleList);
  context.request = values.request;
  context.site = values.site;
  context.url = values.url;
  Object.defineProperty(context, 'originPathname', CONTEXT.originPathname);
  Object.defineProperty(context, 'csp', CONTEXT.csp);
  Object.defineProperty(context, 'logger', CONTEXT.logger);
  return context;
}

/** A getter for each registered provider's value on `target` (an endpoint's context or a page's `Astro`), and `session` where none provides it. */
export function defineProviderAccessors(target: object, state: RequestState, providers: ReadonlyMap<string, unknown> | undefined): void {
  keepState(target, state);
  if (providers) for (const key of providers.keys()) Object.defineProperty(target, key, providerAccessor(key));
  if (!providers?.has('session')) Object.defineProperty(target, 'session', NO_SESSION);
}
