import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';
import { describe, expect, it, vi } from 'vitest';
import { withSharedAccessors } from '../../../src/integrations/context-accessors/index.ts';
import {
  actionContext,
  defineProviderAccessors,
  type RequestState,
  renderOptions,
  STATE_KEY,
  setAstroParts,
} from '../../../src/integrations/context-accessors/accessors.ts';

// Astro's fetch-state module as installed: the rewrites must recognise the version the project builds with.
const astroRequire = createRequire(createRequire(import.meta.url).resolve('astro/package.json'));
const FETCH_STATE = readFileSync(astroRequire.resolve('./dist/core/fetch/fetch-state.js'), 'utf8');

function requestState(overrides: Partial<RequestState> = {}): RequestState {
  return {
    locals: { voter: 'first' },
    cookies: { kind: 'cookies' },
    request: new Request('https://vote.example/api/survey'),
    logger: { warn: vi.fn() },
    getClientAddress: () => '192.0.2.7',
    computeCurrentLocale: () => 'en',
    computePreferredLocale: () => 'en-GB',
    computePreferredLocaleList: () => ['en-GB', 'en'],
    getCsp: () => ({ kind: 'csp' }),
    resolve: (key) => `provided ${key}`,
    ...overrides,
  };
}

const values = {
  routePattern: '/api/survey',
  isPrerendered: false,
  generator: 'Astro v7',
  params: { route: 'survey' },
  request: new Request('https://vote.example/api/survey'),
  site: undefined,
  url: new URL('https://vote.example/api/survey'),
};

setAstroParts({
  localsReassigned() {
    throw new Error('locals reassigned');
  },
  originPathname: () => '/api/survey',
  runtimeLogger: (logger) => ({ runtime: logger }),
});

describe("the server build's Astro keeps no per-request getters", () => {
  it("rewrites each of the installed Astro's objects, into a module that parses", () => {
    const { code, missing } = withSharedAccessors(FETCH_STATE, '/accessors.ts');
    expect(missing).toEqual([]);
    expect(code).not.toMatch(/get locals\(\)\s*\{\s*return (self|state)\.locals/);
    expect(code).not.toContain('get: () => state.resolve(key)');
    expect(code).toContain('import * as __peervoteAccessors from "/accessors.ts";');
    expect(code).toContain('__peervoteAccessors.setAstroParts({');
    expect(() => parseAst(code)).not.toThrow();
  });

  it('leaves a source it does not recognise as it is, naming what it missed', () => {
    const other = 'export class FetchState { constructor() { this.renderOptions = { get locals() { return 1; } }; } }';
    expect(withSharedAccessors(other, '/accessors.ts')).toEqual({
      code: other,
      missing: ['the render options', "an endpoint's context", "the providers' getters"],
    });
  });
});

describe('the shared accessors', () => {
  it("give the render options the request's locals, as they are when read", () => {
    const state = requestState();
    const options: { addCookieHeader: boolean; locals: unknown } = { addCookieHeader: true, locals: { stale: true } };
    renderOptions(options, state);
    expect(options.locals).toEqual({ voter: 'first' });
    (state as { locals: unknown }).locals = { voter: 'second' };
    expect(options.locals).toEqual({ voter: 'second' });
    // Astro spreads the options into an error page's: `locals` is copied as it is then, the state is not.
    expect({ ...options }).toEqual({ addCookieHeader: true, locals: { voter: 'second' } });
    expect(Object.keys(options)).toEqual(['addCookieHeader', 'locals']);
    expect(JSON.stringify(options)).not.toContain(STATE_KEY);
  });

  it("make an endpoint's context with Astro's properties, in Astro's order, read from the request's state", () => {
    const state = requestState();
    const context = actionContext(state, values);
    expect(Object.keys(context)).toEqual([
      'cookies',
      'routePattern',
      'isPrerendered',
      'clientAddress',
      'currentLocale',
      'generator',
      'locals',
      'params',
      'preferredLocale',
      'preferredLocaleList',
      'request',
      'site',
      'url',
      'originPathname',
      'csp',
      'logger',
    ]);
    expect(context).toMatchObject({
      cookies: { kind: 'cookies' },
      routePattern: '/api/survey',
      clientAddress: '192.0.2.7',
      currentLocale: 'en',
      locals: { voter: 'first' },
      preferredLocale: 'en-GB',
      preferredLocaleList: ['en-GB', 'en'],
      originPathname: '/api/survey',
      csp: { kind: 'csp' },
      logger: { runtime: state.logger },
    });
    expect(() => {
      context.locals = {};
    }).toThrow('locals reassigned');
    // Astro's actions copy the context from its own descriptors onto a new object: the copy still reads the state.
    const copy = Object.create(Object.getPrototypeOf(context), Object.fromEntries(Object.entries(Object.getOwnPropertyDescriptors(context))));
    expect(copy.clientAddress).toBe('192.0.2.7');
  });

  it("give each provider's value, and `session` once with Astro's warning where none provides it", () => {
    const state = requestState();
    const context = actionContext(state, values);
    defineProviderAccessors(context, state, new Map([['cache', {}]]));
    expect(context.cache).toBe('provided cache');
    expect(context.session).toBeUndefined();
    expect(context.session).toBeUndefined();
    expect(state.logger.warn).toHaveBeenCalledTimes(1);
    // A page's `Astro` inherits from the object given the getters.
    const page = {};
    defineProviderAccessors(page, state, new Map([['session', {}]]));
    expect(Object.create(page).session).toBe('provided session');
  });

  it("let a request's objects die young, where getters written inline keep them to the next full collection", () => {
    const script = fileURLToPath(new URL('./context-accessors.retention.ts', import.meta.url));
    const promoted = (context: string) => Number(execFileSync(process.execPath, ['--expose-gc', script, context], { encoding: 'utf8' }));
    expect(promoted('inline')).toBeGreaterThan(2000);
    expect(promoted('shared')).toBeLessThan(200);
  });
});
