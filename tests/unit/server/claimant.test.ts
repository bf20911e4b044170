import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { claimantOf, holderGone, THIS_PROCESS } from '../../../src/server/mail/claimant.ts';
import { leaseLive } from '../../../src/server/mail/mail-runs.repository.ts';
import type { MailRunRow } from '../../../src/server/db/tables/mail-runs.table.ts';

// Who holds mail work, and when another process may take it: a holder is gone when it was an
// earlier start of this very process id, or a process of this machine that has ended; a holder on
// another machine is never known gone, and its claim runs out instead.

/** The id of a process that has ended (a child run to its end and reaped). */
const endedPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;
const self = { owner: `${process.pid}@here#now`, host: 'here', pid: process.pid };

describe('holderGone', () => {
  it.each([
    ['this very start', self, false],
    ['an earlier start of the same process id', { owner: `${process.pid}@here#before`, host: 'here', pid: process.pid }, true],
    ['a live process of this machine', { owner: '1@here#x', host: 'here', pid: process.ppid }, false],
    ['a process of this machine that has ended', { owner: 'x', host: 'here', pid: endedPid() }, true],
    ['a process of another machine, whatever its id', { owner: 'x', host: 'there', pid: endedPid() }, false],
  ])('%s: %s', (_, holder, gone) => {
    expect(holderGone(holder, self)).toBe(gone);
  });
});

describe('claimantOf', () => {
  it('reads back the name THIS_PROCESS writes, and nothing from another shape', () => {
    expect(claimantOf(THIS_PROCESS.owner)).toEqual(THIS_PROCESS);
    expect(claimantOf('mail-2.example')).toBeUndefined();
  });
});

describe('leaseLive', () => {
  const now = new Date('2027-01-10T10:00:00Z');
  const run = (lease: Partial<MailRunRow>) =>
    ({ lease_owner: 'x', lease_host: 'there', lease_pid: 1, lease_expires_at: '2027-01-10T10:00:20Z', ...lease }) as MailRunRow;
  it.each([
    ['a claim of another machine that has not run out', {}, true],
    ['a claim that has run out', { lease_expires_at: '2027-01-10T09:59:59Z' }, false],
    ['no claim', { lease_owner: null, lease_expires_at: null }, false],
    ['a claim of an ended process of this machine', { lease_host: 'here', lease_pid: endedPid() }, false],
  ])('%s: %s', (_, lease, live) => {
    expect(leaseLive(run(lease), now, self)).toBe(live);
  });
});
