import { describe, expect, it } from 'vitest';
import { consoleAddress } from '../../../src/server/console/console-address.ts';
import { agentWords } from '../../../src/server/console/agent.ts';

describe("the console's address", () => {
  it('is localhost on npm start, where a passkey may belong, with a plain cookie over HTTP', () => {
    expect(consoleAddress(new URL('http://localhost:4321/console/'), {})).toEqual({
      origin: 'http://localhost:4321',
      rpId: 'localhost',
      secure: false,
      cookieName: 'pv_console',
    });
  });

  it.each(['http://127.0.0.1:4321/console/x?y=1', 'http://[::1]:4321/console/x?y=1'])('sends %s to localhost, path and query kept', (address) => {
    expect(consoleAddress(new URL(address), {})).toEqual({ redirect: 'http://localhost:4321/console/x?y=1' });
  });

  it('is PEERVOTE_BASE_URL when set: its host is the relying party, its cookie __Host- and Secure over HTTPS', () => {
    expect(consoleAddress(new URL('https://vote.example.com/console/'), { baseUrl: 'https://vote.example.com' })).toEqual({
      origin: 'https://vote.example.com',
      rpId: 'vote.example.com',
      secure: true,
      cookieName: '__Host-pv_console',
    });
  });

  it('says where it lives, without a redirect, at any other address', () => {
    const behindProxy = consoleAddress(new URL('http://10.0.0.5:4321/console/'), { baseUrl: 'https://vote.example.com' });
    expect(behindProxy).toEqual({ why: expect.stringContaining('ALLOWED_DOMAINS=vote.example.com') });
    expect(consoleAddress(new URL('http://192.168.1.9:4321/console/'), {})).toEqual({ why: expect.stringContaining('PEERVOTE_BASE_URL') });
  });
});

describe("a session's browser in words", () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0', 'Edge on Windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:130.0) Gecko/20100101 Firefox/130.0', 'Firefox on macOS'],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['curl/8.5.0', 'Another browser'],
  ])('%s is %s', (userAgent, words) => {
    expect(agentWords(userAgent)).toBe(words);
  });

  it('is nothing without a User-Agent', () => {
    expect(agentWords(null)).toBeNull();
  });
});
