import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { CSRF_HEADER, type MailRunView } from '../survey/operators/console-views.ts';
import { runProgress } from './format.ts';

// The console's one script: the passkey ceremonies (sign in, a first passkey from a link, another
// passkey) and the acts that ask for the passkey again, each a button or form the page marks with
// `data-console`; and "Check the chain", whose answer it brings into the page's status line. The
// pages are plain HTML without it; only passkeys need it.

/** An answer of the console's API: its status and JSON body. */
interface Answer {
  status: number;
  body: { error?: string; message?: string; next?: string; ceremony?: string; options?: never; problems?: Array<{ path: string; message: string }> };
}

/** The session's CSRF token, which the page carries when an operator is signed in. */
const csrf = document.body.dataset.csrf;

/** Posts JSON to the console's API, with the session's CSRF token. */
async function post(url: string, body: Record<string, unknown> = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (csrf) headers[CSRF_HEADER] = csrf;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' });
  const parsed = await response.json().catch(() => ({}));
  return { status: response.status, body: parsed };
}

/** Says how things stand in the status line of `where` (a form that has one of its own), else the page's (announced to screen readers), as a problem when `problem`. */
function say(text: string, problem = false, where: ParentNode = document): void {
  const status = where.querySelector<HTMLElement>('[data-console-status]') ?? document.querySelector<HTMLElement>('[data-console-status]');
  if (!status) return;
  status.textContent = text;
  status.classList.toggle('is-danger', problem);
}

/** An answer's sentence, or a general one. */
const sentence = (answer: Answer) => answer.body.message ?? 'Something went wrong: try again.';

/** Why a passkey ceremony did not finish, in words: the person cancelled it or took too long, or the browser refused. */
function ceremonyFailed(error: unknown): string {
  const name = (error as { name?: string; cause?: { name?: string } })?.cause?.name ?? (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey was not used (cancelled, or it took too long). Try again.';
  if (name === 'InvalidStateError') return 'This device has a passkey for you already: sign in with it instead.';
  return 'Your browser could not use a passkey here. Try again, or try another browser.';
}

/** Checks the passkey again (a sensitive act asks for one in the last five minutes); true when it was. */
async function checkAgain(where: ParentNode = document): Promise<boolean> {
  say('Confirm it is you with your passkey…', false, where);
  const options = await post('/api/console/reauthenticate/options');
  if (options.status !== 200) return (say(sentence(options), true, where), false);
  const response = await startAuthentication({ optionsJSON: options.body.options as never });
  const checked = await post('/api/console/reauthenticate', { ceremony: options.body.ceremony, response });
  if (checked.status !== 200) return (say(sentence(checked), true, where), false);
  return true;
}

/** Posts an act; when it asks for the passkey again, checks it and posts once more. */
async function act(url: string, body: Record<string, unknown> = {}, where: ParentNode = document): Promise<Answer | undefined> {
  const first = await post(url, body);
  if (first.status !== 403 || first.body.error !== 'reauthentication_required') return first;
  return (await checkAgain(where)) ? post(url, body) : undefined;
}

/** Runs a button's or form's work once at a time, with its control disabled meanwhile and any failure said (in `where`'s status line). */
function busy(control: HTMLButtonElement, work: () => Promise<void>, where: ParentNode = document): void {
  if (control.disabled) return;
  control.disabled = true;
  work()
    .catch((error) => say(ceremonyFailed(error), true, where))
    .finally(() => (control.disabled = false));
}

/** Signs in with a discoverable passkey of this site, then opens the operator's surveys. */
async function signIn(): Promise<void> {
  say('Waiting for your passkey…');
  const options = await post('/api/console/sign-in/options');
  if (options.status !== 200) return say(sentence(options), true);
  const response = await startAuthentication({ optionsJSON: options.body.options as never });
  const signed = await post('/api/console/sign-in', { ceremony: options.body.ceremony, response });
  if (signed.status !== 200) return say(sentence(signed), true);
  say('Signed in.');
  location.assign(signed.body.next ?? '/console/');
}

/** Makes the first passkey from an enrolment link, which signs the operator in. */
async function enrol(token: string): Promise<void> {
  say('Waiting for your device to create the passkey…');
  const options = await post('/api/console/enrol/options', { token });
  if (options.status !== 200) return say(sentence(options), true);
  const response = await startRegistration({ optionsJSON: options.body.options as never });
  const made = await post('/api/console/enrol', { token, ceremony: options.body.ceremony, response });
  if (made.status !== 201) return say(sentence(made), true);
  say('Your passkey is made: you are signed in.');
  location.assign(made.body.next ?? '/console/');
}

/** Adds another passkey for the signed-in operator (after a check of one they have). */
async function addPasskey(): Promise<void> {
  const options = await act('/api/console/passkeys/options');
  if (!options) return;
  if (options.status !== 200) return say(sentence(options), true);
  say('Waiting for your device to create the passkey…');
  const response = await startRegistration({ optionsJSON: options.body.options as never });
  const added = await post('/api/console/passkeys', { ceremony: options.body.ceremony, response });
  if (added.status !== 201) return say(sentence(added), true);
  location.assign(`${location.pathname}?added=1`);
}

/**
 * Shows a refusal's problems under the form's fields they name (`data-field-error`), the field
 * marked and the first one focused, as the ballot's fields show theirs; clears those of a
 * previous try. True when a field was named.
 */
function showFieldProblems(form: HTMLFormElement, problems: ReadonlyArray<{ path: string; message: string }> = []): boolean {
  for (const shown of form.querySelectorAll<HTMLElement>('[data-field-error]')) {
    shown.textContent = '';
    shown.hidden = true;
    shown.closest('[data-field]')?.classList.remove('is-danger');
  }
  let first: HTMLElement | undefined;
  for (const problem of problems) {
    const shown = form.querySelector<HTMLElement>(`[data-field-error="${CSS.escape(problem.path)}"]`);
    if (!shown) continue;
    shown.textContent = problem.message;
    shown.hidden = false;
    shown.closest('[data-field]')?.classList.add('is-danger');
    first ??= form.querySelector<HTMLElement>(`[name="${CSS.escape(problem.path)}"]`) ?? undefined;
  }
  first?.focus();
  return first !== undefined;
}

/** A form's act through the API (the passkey checked again when it asks), then the page it names; a refusal said in the form, under the field it names. */
async function formAct(form: HTMLFormElement): Promise<void> {
  const fields = Object.fromEntries([...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  showFieldProblems(form);
  say('', false, form);
  const answer = await act(form.action, fields, form);
  if (!answer) return;
  if (answer.status >= 300) {
    if (!showFieldProblems(form, answer.body.problems)) say(sentence(answer), true, form);
    return;
  }
  location.assign(form.dataset.done ?? location.pathname);
}

const controls = document.querySelectorAll<HTMLButtonElement>('button[data-console]');
if (controls.length && !browserSupportsWebAuthn()) {
  say('This browser cannot use passkeys. Open the console in a recent browser (Chrome, Edge, Firefox or Safari).', true);
  for (const control of controls) control.disabled = true;
} else {
  for (const control of controls) {
    const what = control.dataset.console;
    control.addEventListener('click', () => {
      if (what === 'sign-in') busy(control, signIn);
      else if (what === 'enrol') busy(control, () => enrol(control.dataset.token ?? ''));
      else if (what === 'add-passkey') busy(control, addPasskey);
    });
  }
}

// Forms that post an act work without this script too (a check again then asks for it); with it they post JSON and check the passkey when asked.
// The server's words for a field replace the browser's own check of it.
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-console-act]')) {
  form.noValidate = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button) busy(button, () => formAct(form), form);
  });
}

/** "Check the chain" without leaving the page: the answer the page would show comes into its status line, which a screen reader announces. */
async function checkChain(form: HTMLFormElement): Promise<void> {
  // Its attribute, not `form.action`: the filter's field named "action" shadows that property.
  const url = new URL(form.getAttribute('action') ?? location.pathname, location.href);
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') url.searchParams.set(name, value);
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
  } catch {
    return say('The chain could not be checked: the server did not answer. Try again.', true);
  }
  if (response.redirected) return say('Your session has ended: sign in again to check the chain.', true);
  const answer = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('[data-console-status]');
  if (!response.ok || !answer?.textContent) return say('The chain could not be checked just now: reload the page and try again.', true);
  say(answer.textContent.trim(), answer.classList.contains('is-danger'));
}

// Without this script the form asks for the page again, the answer on it.
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-audit-check]')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button) busy(button, () => checkChain(form));
  });
}

/** How often the mail page asks how far its send run is. */
const FOLLOW_MS = 2000;

/**
 * Follows a send run on the mail page: asks how far it is every two seconds and says it in the
 * run's status line, which a screen reader announces, until it ends. Without this script the
 * page's Refresh link asks for it.
 */
async function followRun(line: HTMLElement): Promise<void> {
  const url = line.dataset.mailRun ?? '';
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
    const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).catch(() => undefined);
    if (!response) continue;
    if (!response.ok) return;
    const run = (await response.json()) as MailRunView;
    const text = runProgress(run);
    if (line.textContent !== text) line.textContent = text;
    if (run.state !== 'running') {
      // The forms that start a run come back with the page: the Refresh link leads to it.
      const refresh = line.parentElement?.querySelector<HTMLAnchorElement>('a[data-mail-refresh]');
      if (refresh) refresh.textContent = 'Reload the page to send again';
      return;
    }
  }
}

for (const line of document.querySelectorAll<HTMLElement>('[data-mail-run]')) void followRun(line);
