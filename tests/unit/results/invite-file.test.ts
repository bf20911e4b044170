import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { prepopulationText } from '../../../bin/lib/invite-command.ts';

const HEADER = '# Personal links of demo.\n# Personal data.\n';
const dir = mkdtempSync(path.join(tmpdir(), 'peervote-invite-'));

describe('the prepopulation file invite writes', () => {
  it('starts a new file under the header', () => {
    const text = prepopulationText(path.join(dir, 'none.yaml'), { s1: { email: 'a@example.org' } }, HEADER);
    expect(text.startsWith('# Personal links of demo.\n# Personal data.\n')).toBe(true);
    expect(parse(text)).toEqual({ s1: { email: 'a@example.org' } });
  });

  it("keeps the operator's comments, edits changed people and removes the ones no longer there", () => {
    const file = path.join(dir, 'kept.yaml');
    writeFileSync(
      file,
      '# Spring wave, checked by the desk.\ns1:\n  email: a@example.org # the chair\ns2:\n  email: b@example.org\ns3:\n  email: c@example.org\n',
    );
    const text = prepopulationText(file, { s1: { email: 'a@example.org' }, s2: { email: 'b2@example.org' }, s4: { email: 'd@example.org' } }, HEADER);
    expect(parse(text)).toEqual({ s1: { email: 'a@example.org' }, s2: { email: 'b2@example.org' }, s4: { email: 'd@example.org' } });
    expect(text).toContain('# Spring wave, checked by the desk.');
    expect(text).toContain('email: a@example.org # the chair');
    expect(text).not.toContain('c@example.org');
    // A file that opens with a comment keeps it as its header; a second run changes nothing.
    expect(text).not.toContain('Personal links of demo');
    writeFileSync(file, text);
    expect(prepopulationText(file, parse(text), HEADER)).toBe(text);
  });

  it('writes the header once, however often it runs', () => {
    const file = path.join(dir, 'again.yaml');
    writeFileSync(file, prepopulationText(file, { s1: { email: 'a@example.org' } }, HEADER));
    const again = prepopulationText(file, { s1: { email: 'a@example.org' }, s2: { email: 'b@example.org' } }, HEADER);
    expect(again.match(/Personal links of demo/g)).toHaveLength(1);
    expect(parse(again)).toEqual({ s1: { email: 'a@example.org' }, s2: { email: 'b@example.org' } });
  });
});
