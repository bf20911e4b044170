import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { toPublicSurvey } from '../../../src/survey/config/public.ts';
import { pagePolicy, surveyCspSources, thirdPartyConfig } from '../../../src/survey/config/third-parties.ts';
import { mergePolicies, parsePolicy } from '../../../src/survey/api/headers.ts';
import { headerRules, ownPolicy, pageFile, pagePolicies, routePolicies, surveyPolicies, withMetaPolicy } from '../../../src/integrations/static-host-rules.ts';
import { headersFor, parseHeaderRules, withPagePolicy } from '../../../bin/static-rules.mjs';
import { listenBallotEvents, type BallotEvent } from '../../../src/third-party/ballot-events.ts';
import { $nominations, clearNominee, pickNominee } from '../../../src/ballot/nominations/nominations.ts';
import { $writeIns, addWriteIn, updateWriteIn } from '../../../src/ballot/writeins/writeins.ts';
import { $reservations, selectTile, setCustomReservation } from '../../../src/ballot/reservations/reservations.ts';
import { $submitted } from '../../../src/ballot/submit/submit-state.ts';
import { slotName } from '../../../src/survey/ballots/ballot-keys.ts';

const survey = (slug: string) => toPublicSurvey(slug, loadSurvey(slug).config);

describe("a survey's third parties", () => {
  it('the demo survey configures none, members-choice every one', () => {
    expect(thirdPartyConfig(survey('top-doctors-demo'))).toBeUndefined();
    expect(thirdPartyConfig(survey('members-choice'))).toEqual({
      analyticsId: 'G-MC2027CMS01',
      facebookPixel: '4829103756612044',
      linkedinPartnerId: '5123456',
      translate: true,
    });
  });

  it('translation needs the welcome block that holds its widget', () => {
    expect(
      thirdPartyConfig({ ...survey('members-choice'), welcome: undefined, analytics_id: undefined, facebook_pixel: undefined, linkedin_insights: undefined }),
    ).toBeUndefined();
  });
});

describe('the Content-Security-Policy sources of a survey', () => {
  it("add nothing when nothing is configured and every image is the site's own", () => {
    expect(surveyCspSources(survey('top-doctors-demo'))).toEqual({});
  });

  it('add the hosts of images, the API (which a form without JavaScript posts to), Algolia and Sentry where the configuration names them', () => {
    const demo = {
      ...survey('top-doctors-demo'),
      publication_logo: 'https://cdn.example.com/logo.png',
      algolia_app_id: 'APP',
      algolia_api_key: 'key',
      algolia_index: 'docs',
    };
    expect(surveyCspSources(demo, { apiUrl: 'https://api.example.com/', sentryDsn: 'https://k@o1.ingest.sentry.io/42' })).toEqual({
      'img-src': ['https://cdn.example.com'],
      'connect-src': [
        'https://api.example.com',
        'https://*.algolia.net',
        'https://*.algolianet.com',
        'https://insights.algolia.io',
        'https://o1.ingest.sentry.io',
      ],
      'form-action': ['https://api.example.com'],
    });
    expect(surveyCspSources(survey('top-doctors-demo'), { sentryDsn: 'https://k@o1.ingest.sentry.io/42', sentryTunnel: '/errors' })).toEqual({});
  });

  it("add each configured vendor's hosts, and inline styles for the translator", () => {
    const sources = surveyCspSources(survey('members-choice'));
    expect(sources['script-src']).toContain('https://www.googletagmanager.com');
    expect(sources['script-src']).toContain('https://connect.facebook.net');
    expect(sources['script-src']).toContain('https://snap.licdn.com');
    expect(sources['style-src']).toContain("'unsafe-inline'");
    const policy = pagePolicy(sources);
    expect(policy['frame-src']).toEqual(['https://translate.google.com', 'https://translate.googleapis.com']);
    expect(pagePolicy()['frame-src']).toEqual(["'none'"]);
  });
});

describe("merging the policies of a survey's pages", () => {
  it('allows what any page allows, directive by directive, plus header-only directives', () => {
    const merged = mergePolicies(["default-src 'self'; script-src 'self' 'sha256-a'", "default-src 'self'; script-src 'self' 'sha256-b'; frame-src 'none'"], {
      'frame-ancestors': ["'none'"],
    });
    expect(merged).toBe("default-src 'self'; script-src 'self' 'sha256-a' 'sha256-b'; frame-src 'none'; frame-ancestors 'none'");
  });

  it("drops the hashes that would switch 'unsafe-inline' off, and 'none' beside a source", () => {
    const merged = parsePolicy(
      mergePolicies(["style-src 'self' 'sha256-a'; frame-src 'none'", "style-src 'self' 'unsafe-inline'; frame-src https://x.example"]),
    );
    expect(merged.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(merged.get('frame-src')).toEqual(['https://x.example']);
  });

  it("reads the policy Astro hands the build for each page, and merges a survey's with the not-found page's", () => {
    const page = (policy?: string) => ({ headers: new Headers(policy ? { 'Content-Security-Policy': policy } : {}) });
    const policies = routePolicies(
      new Map([
        ['/demo', page("script-src 'self' 'sha256-a'")],
        ['/demo/thankyou', page("script-src 'self' 'sha256-b'")],
        ['/demo-two', page("script-src 'self' 'sha256-c'")],
        ['/404', page("script-src 'self' 'sha256-d'")],
        ['/plain', page()],
      ]),
    );
    expect([...policies.keys()]).toEqual(['/demo', '/demo/thankyou', '/demo-two', '/404']);
    expect(surveyPolicies(policies, ['demo', 'demo-two'])).toEqual({
      demo: "script-src 'self' 'sha256-a' 'sha256-b' 'sha256-d'; frame-ancestors 'none'",
      'demo-two': "script-src 'self' 'sha256-c' 'sha256-d'; frame-ancestors 'none'",
    });
  });
});

describe("each page's own policy", () => {
  const sha = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
  const page =
    '<head><style>p{}</style></head><body><script type="module">go()</script><script type="application/json">{"a":1}</script><script src="/x.js"></script></body>';

  it("keeps the hashes of what the page writes inline, and no other page's", () => {
    const policy = `default-src 'self'; script-src 'self' ${sha('go()')} ${sha('other()')}; style-src 'self' ${sha('p{}')} ${sha('q{}')}`;
    expect(ownPolicy(policy, page)).toBe(`default-src 'self'; script-src 'self' ${sha('go()')}; style-src 'self' ${sha('p{}')}`);
    // A directive left with nothing allows nothing, not everything.
    expect(ownPolicy(`style-src ${sha('q{}')}`, '<style>q{}</style>')).toBe(`style-src ${sha('q{}')}`);
    expect(ownPolicy(`script-src ${sha('other()')}`, '<p>no script</p>')).toBe("script-src 'none'");
  });

  it('refuses a page whose policy would block what it writes inline, naming it', () => {
    expect(() => ownPolicy(`script-src 'self'; style-src 'self' ${sha('p{}')}`, page)).toThrow(
      'its policy blocks what it writes inline: <script type="module">go()',
    );
    expect(() => ownPolicy(`default-src 'self'; script-src 'self' ${sha('go()')}`, page)).toThrow('<style>p{}');
    // 'unsafe-inline' allows it (a third party's styles ask for it); data and files need no hash.
    expect(() => ownPolicy(`script-src ${sha('go()')}; style-src 'unsafe-inline'`, page)).not.toThrow();
  });

  it("is sent by bin/serve.mjs for the page a path is answered with, in place of its folder's", () => {
    const policies = new Map(
      Object.entries(
        pagePolicies(
          new Map([
            ['/demo', "script-src 'self'"],
            ['/demo/personal-link', "script-src 'none'"],
          ]),
        ),
      ),
    );
    const folder: Array<[string, string]> = [
      ['Referrer-Policy', 'no-referrer'],
      ['Content-Security-Policy', "script-src 'self' 'sha256-a'; frame-ancestors 'none'"],
    ];
    const own = ['Content-Security-Policy', "script-src 'self'; frame-ancestors 'none'"];
    expect(withPagePolicy(folder, policies, '/demo/')).toEqual([folder[0], own]);
    expect(withPagePolicy(folder, policies, '/demo/index.html')).toEqual([folder[0], own]);
    expect(withPagePolicy(folder, policies, '/demo/personal-link/')).toContainEqual(['Content-Security-Policy', "script-src 'none'; frame-ancestors 'none'"]);
    expect(withPagePolicy(folder, policies, '/demo/media/a.svg')).toBe(folder);
  });
});

describe('_headers', () => {
  const rules = parseHeaderRules(headerRules({ demo: "default-src 'self'" }));

  it("sends the hardening headers everywhere and a survey's policy under its folder only", () => {
    const names = (pathname: string) => headersFor(rules, pathname).map(([name]) => name);
    expect(names('/api/health')).toContain('Referrer-Policy');
    expect(names('/api/health')).not.toContain('Content-Security-Policy');
    expect(headersFor(rules, '/demo/s3cr3t')).toContainEqual(['Content-Security-Policy', "default-src 'self'"]);
    expect(names('/demo-two/')).not.toContain('Content-Security-Policy');
  });

  it("writes each page's policy into its <meta>, before the first stylesheet, linked or inline, from the page's path", () => {
    expect(pageFile('/404')).toBe('404.html');
    expect(pageFile('/demo')).toBe('demo/index.html');
    expect(pageFile('/demo/thankyou')).toBe('demo/thankyou/index.html');
    const html = '<html><head><meta charset="utf-8"><link rel="stylesheet" href="/a.css"></head><body></body></html>';
    expect(withMetaPolicy(html, `script-src 'self' "x" &`)).toBe(
      `<html><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="script-src 'self' &quot;x&quot; &amp;"><link rel="stylesheet" href="/a.css"></head><body></body></html>`,
    );
    expect(withMetaPolicy('<head><title>t</title><style>p{}</style><link rel="stylesheet"></head>', 'a')).toBe(
      '<head><title>t</title><meta http-equiv="content-security-policy" content="a"><style>p{}</style><link rel="stylesheet"></head>',
    );
    expect(withMetaPolicy('<head></head><body><link rel="stylesheet"></body>', 'a')).toBe(
      '<head><meta http-equiv="content-security-policy" content="a"></head><body><link rel="stylesheet"></body>',
    );
  });

  it('gives the not-found page its own policy, under its own path only', () => {
    const withNotFound = parseHeaderRules(headerRules({ demo: "default-src 'self'" }, "default-src 'none'"));
    expect(headersFor(withNotFound, '/404.html')).toContainEqual(['Content-Security-Policy', "default-src 'none'"]);
    expect(headersFor(withNotFound, '/nowhere/').map(([name]) => name)).not.toContain('Content-Security-Policy');
    expect(headersFor(withNotFound, '/demo/x').filter(([name]) => name === 'Content-Security-Policy')).toEqual([
      ['Content-Security-Policy', "default-src 'self'"],
    ]);
  });
});

describe("the ballot's analytics events", () => {
  const events: BallotEvent[] = [];
  let stop: () => void;
  beforeEach(() => {
    stop?.();
    $nominations.set({});
    $writeIns.set([]);
    $reservations.set({});
    $submitted.set(undefined);
    events.length = 0;
    stop = listenBallotEvents((event) => events.push(event));
  });

  it('follow the stores: a pick, a new write-in row, a tile, the outcome; never a name', () => {
    pickNominee(slotName('Heart and Lungs', 'Cardiology', 1), 'n1');
    pickNominee(slotName('Heart and Lungs', 'Cardiology', 2), 'n1'); // a duplicate is cleared, not picked
    clearNominee(slotName('Heart and Lungs', 'Cardiology', 1));
    const row = addWriteIn(3)!;
    updateWriteIn(row, { name: 'Dr. Private Person' });
    selectTile('faces', 'cardiology');
    setCustomReservation('faces', 'THE FACE OF Sleep');
    $submitted.set({ status: 'sent' });
    expect(events).toEqual([
      { name: 'nomination_picked', params: { category: 'Heart and Lungs / Cardiology' } },
      { name: 'write_in_added', params: { write_ins: 1 } },
      { name: 'reservation_selected', params: { field: 'faces', tile: 'cardiology' } },
      { name: 'submit_succeeded', params: {} },
    ]);
  });

  it('a submission that was not stored is submit_failed with how it ended', () => {
    $submitted.set({ status: 'saved' });
    expect(events).toEqual([{ name: 'submit_failed', params: { outcome: 'saved' } }]);
  });
});
