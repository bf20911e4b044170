// "Check your ballot" on the results page: the code is normalised and hashed in the browser
// (SHA-256 of the published salt followed by the code, as the ledger hashed it), and only the
// first two hex digits of the hash choose which lookup file to fetch.
import { normalizeReceipt } from '../survey/published/receipt-code.ts';
import { notCountedWords, standingWords, type NotCounted } from '../survey/published/published-results.ts';
import { m } from '../i18n/messages.ts';
import type { ReceiptEntry } from '../survey/published/published-folder.ts';

/** SHA-256 of a text, hex, by the browser's own crypto. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Looks a receipt code up in the published ledger and writes the answer into `answer`. */
export async function checkBallot(root: HTMLElement, typed: string, answer: HTMLElement): Promise<void> {
  const say = (sentence: string, left: ReceiptEntry[2] = []) => {
    answer.replaceChildren();
    const p = document.createElement('p');
    p.textContent = sentence;
    answer.append(p);
    if (!left.length) return;
    const names = JSON.parse(root.dataset.names ?? '{}') as Record<string, string>;
    const list = document.createElement('ul');
    for (const [subcategory, nomineeId, why] of left) {
      const item = document.createElement('li');
      item.textContent = m.check_not_counted_because({
        vote: `${subcategory}, ${names[nomineeId] || nomineeId}`,
        why: notCountedWords()[why as NotCounted] ?? why,
      });
      list.append(item);
    }
    answer.append(list);
  };
  const code = normalizeReceipt(typed);
  if (!code) return say(m.receipt_bad_code());
  say(m.receipt_checking());
  try {
    const hash = await sha256(`${root.dataset.salt}${code}`);
    const response = await fetch(`${root.dataset.base}receipts/${hash.slice(0, 2)}.json`);
    if (response.status === 404) return say(standingWords().not_found);
    if (!response.ok) return say(m.receipt_failed());
    const entry = ((await response.json()) as Record<string, ReceiptEntry>)[hash];
    if (!entry) return say(standingWords().not_found);
    const [line, standing, left] = entry;
    say(m.check_ledger_line({ standing: standingWords()[standing], line }), standing === 'replaced' ? [] : left);
  } catch {
    say(m.receipt_failed());
  }
}
