/**
 * Headers every page and API answer carries. `no-referrer` keeps a personal link's
 * secret out of the Referer header of any request the page makes.
 */
export function staticHeaders(): Record<string, string> {
  return {
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
