import { m } from '../../i18n/messages.ts';
import { proveVoter } from './proof.ts';

// The verification step in the browser: the two forms of VerifyStep.astro sent by script, the
// API's answers said in the voter's words, and the ballot opened once the code is right.

/** What the survey API answered one step: its status and parsed body. */
interface StepAnswer {
  status: number;
  body: { sent_to?: string; proof?: string; message?: string; error?: string };
}

async function post(form: HTMLFormElement): Promise<StepAnswer> {
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      headers: { Accept: 'application/json' },
    });
    const body = (await response.json().catch(() => ({}))) as StepAnswer['body'];
    return { status: response.status, body };
  } catch {
    return { status: 0, body: { message: m.verify_unreachable() } };
  }
}

/** Runs the verification step: the ballot stays closed until the API gives a proof. */
export function startVerifyStep(step: HTMLElement): void {
  const root = document.getElementById('survey-root');
  const send = step.querySelector<HTMLFormElement>('[data-verify-send]')!;
  const check = step.querySelector<HTMLFormElement>('[data-verify-check]')!;
  const status = step.querySelector<HTMLElement>('[data-verify-status]')!;
  const error = step.querySelector<HTMLElement>('[data-verify-error]')!;
  const code = check.querySelector<HTMLInputElement>('input[name="code"]')!;
  const address = send.querySelector<HTMLInputElement>('input[name="address"]')!;
  if (root) root.dataset.verified = 'no';

  const fail = (message: string, field: HTMLInputElement) => {
    error.textContent = message;
    error.hidden = false;
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', 'verify-error');
    error.id = 'verify-error';
    field.focus();
  };
  const clear = () => {
    error.hidden = true;
    error.textContent = '';
    for (const field of [code, address]) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  };

  send.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear();
    const answer = await post(send);
    if (answer.status !== 202) return fail(answer.body.message ?? m.verify_not_sent(), address);
    check.querySelector<HTMLInputElement>('[data-verify-typed]')!.value = address.value;
    status.textContent = m.verify_sent({ address: answer.body.sent_to ?? '' });
    check.hidden = false;
    code.value = '';
    code.focus();
  });

  check.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear();
    const answer = await post(check);
    if (answer.status === 200 && answer.body.proof) {
      proveVoter(answer.body.proof);
      status.textContent = m.verify_confirmed({ address: answer.body.sent_to ?? '' });
      send.hidden = true;
      check.hidden = true;
      if (root) root.dataset.verified = 'yes';
      document.querySelector<HTMLElement>('form.ballot')?.focus();
      return;
    }
    if (answer.body.error === 'too_many_tries' || answer.body.error === 'code_expired') {
      check.hidden = true;
      status.textContent = '';
      return fail(answer.body.error === 'too_many_tries' ? m.verify_too_many() : m.verify_expired(), address);
    }
    fail(answer.body.message ?? m.verify_wrong(), code);
  });
}
