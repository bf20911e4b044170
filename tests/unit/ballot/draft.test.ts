import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyDraft, linkKey, readOnlyNames, sweepDrafts, takeDraft } from '../../../src/ballot/drafts/draft.ts';
import { $answers } from '../../../src/ballot/fields/answers.ts';
import { resetBallot } from '../../../src/ballot/ballot.ts';
import { $nominations, $nomineeNames, pickNominee } from '../../../src/ballot/nominations/nominations.ts';
import { $reservations } from '../../../src/ballot/reservations/reservations.ts';
import { $writeIns, addWriteIn, updateWriteIn } from '../../../src/ballot/writeins/writeins.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';

const layout = [
  [
    { name: 'email', type: 'email' },
    { name: 'medical-license', type: 'text', prepopulated: true },
    { name: 'note', type: 'text', disabled: true },
  ],
] as FieldDef[][];

/** A Storage kept in memory, as the browser's localStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (index: number) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
  return new Proxy(storage, {
    ownKeys: () => [...items.keys()],
    getOwnPropertyDescriptor: (_, key) => ({ enumerable: true, configurable: true, value: items.get(String(key)) }),
  }) as Storage;
}

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  resetBallot();
});
afterEach(() => vi.unstubAllGlobals());

describe('a draft of the ballot on this device', () => {
  it('is named by survey and link, never by the secret itself', async () => {
    expect(await linkKey('top-doctors-demo', undefined)).toBe('top-doctors-demo:public');
    const personal = await linkKey('top-doctors-demo', 'k7Qm2RzX4pWv');
    expect(personal).toMatch(/^top-doctors-demo:personal:[0-9a-f]{24}$/);
    expect(personal).not.toContain('k7Qm2RzX4pWv');
    expect(await linkKey('top-doctors-demo', 'k7Qm2RzX4pWv')).toBe(personal);
    expect(await linkKey('other-survey', 'k7Qm2RzX4pWv')).not.toBe(personal.replace('top-doctors-demo', 'other-survey'));
  });

  it('holds answers, nominations with their names, write-ins and reservations, but no read-only answer', () => {
    const skip = readOnlyNames({ layout }, { 'medical-license': 'MD-1' });
    expect([...skip].sort()).toEqual(['medical-license', 'note']);
    $answers.set({ email: 'a@b.c', 'medical-license': 'MD-1', note: 'fixed' });
    pickNominee('nominations[A][B][1]', 'n1', 'Dr. One');
    updateWriteIn(addWriteIn(10)!, { name: 'Dr. Write', category: 'B' });
    $reservations.setKey('faces', { tile: 'face-1' });
    const draft = takeDraft(skip, 5, 99);
    expect(draft).toEqual({
      savedAt: 5,
      expiresAt: 99,
      answers: { email: 'a@b.c' },
      nominations: { 'nominations[A][B][1]': 'n1' },
      names: { 'nominations[A][B][1]': 'Dr. One' },
      writeIns: [{ name: 'Dr. Write', category: 'B' }],
      reservations: { faces: { tile: 'face-1' } },
    });

    // A new visit: the personal link's read-only value comes from the API, the rest from the draft.
    resetBallot({ 'medical-license': 'MD-FROM-API' });
    applyDraft({ ...draft, answers: { ...draft.answers, 'medical-license': 'TAMPERED' } }, skip);
    expect($answers.get()).toEqual({ 'medical-license': 'MD-FROM-API', email: 'a@b.c' });
    expect($nominations.get()).toEqual({ 'nominations[A][B][1]': 'n1' });
    expect($nomineeNames.get()).toEqual({ 'nominations[A][B][1]': 'Dr. One' });
    expect($writeIns.get().map(({ name, category }) => ({ name, category }))).toEqual([{ name: 'Dr. Write', category: 'B' }]);
    expect($reservations.get()).toEqual({ faces: { tile: 'face-1' } });
  });

  it('is deleted when its survey expires, and with an expired survey’s page', () => {
    localStorage.setItem('peervote:draft:a:public', JSON.stringify({ expiresAt: 100 }));
    localStorage.setItem('peervote:draft:b:public', JSON.stringify({ expiresAt: 300 }));
    localStorage.setItem('peervote:draft:c:public', JSON.stringify({}));
    localStorage.setItem('peervote:outcome-unrelated', '1');
    sweepDrafts(200);
    expect(localStorage.getItem('peervote:draft:a:public')).toBeNull();
    expect(localStorage.getItem('peervote:draft:b:public')).not.toBeNull();
    sweepDrafts(200, 'c');
    expect(localStorage.getItem('peervote:draft:c:public')).toBeNull();
    expect(localStorage.getItem('peervote:draft:b:public')).not.toBeNull();
    expect(localStorage.getItem('peervote:outcome-unrelated')).toBe('1');
  });
});
