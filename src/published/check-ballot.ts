// "Check your ballot" on the results page: the code is normalised and hashed in the browser
// (SHA-256 of the published salt followed by the code, as the ledger hashed it), and only the
// first two hex digits of the hash choose which lookup file to fetch.
import { normalizeReceipt } from '../survey/published/receipt-code.ts';
import { NOT_COUNTED_WORDS, STANDING_WORDS, type NotCounted } from '../survey/published/published-results.ts';
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
      item.textContent = `${subcategory}, ${names[nomineeId] || nomineeId}: not counted, because ${NOT_COUNTED_WORDS[why as NotCounted] ?? why}.`;
      list.append(item);
    }
    answer.append(list);
  };
  const code = normalizeReceipt(typed);
  if (!code) return say('That is not a receipt code. A receipt code has 12 letters and digits, such as 7K3M-Q9TD-2XHB.');
  say('Checking…');
  try {
    const hash = await sha256(`${root.dataset.salt}${code}`);
    const response = await fetch(`${root.dataset.base}receipts/${hash.slice(0, 2)}.json`);
    if (response.status === 404) return say(STANDING_WORDS.not_found);
    if (!response.ok) return say('The check could not be made just now. Please try again later.');
    const entry = ((await response.json()) as Record<string, ReceiptEntry>)[hash];
    if (!entry) return say(STANDING_WORDS.not_found);
    const [line, standing, left] = entry;
    say(`${STANDING_WORDS[standing]} (ledger line ${line})`, standing === 'replaced' ? [] : left);
  } catch {
    say('The check could not be made just now. Please try again later.');
  }
}
