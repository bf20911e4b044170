/**
 * The survey API's URL for a path: `PUBLIC_SURVEY_API_URL` when the API runs on another
 * origin, else the page's own origin.
 */
export function apiUrl(path: string, query: Record<string, string | undefined> = {}): string {
  const base = (import.meta.env.PUBLIC_SURVEY_API_URL as string | undefined)?.replace(/\/$/, '') ?? '';
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const search = params.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}
