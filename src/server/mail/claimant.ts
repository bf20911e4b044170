import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

// Who holds a piece of mail work (a receipt being sent, a console send run): this process, named
// so that another process can tell when the holder is gone. A claim also has an expiry, for a
// holder on another machine, which cannot be asked whether it lives.

/** A holder of mail work: its name (process id, machine and a random part of this start), machine and process id. */
export interface Claimant {
  readonly owner: string;
  readonly host: string;
  readonly pid: number;
}

/** This process as a claimant; the random part tells this start from an earlier one of the same id (a container's process is often number 1 at each start). */
export const THIS_PROCESS: Claimant = Object.freeze({ owner: `${process.pid}@${hostname()}#${randomUUID()}`, host: hostname(), pid: process.pid });

/** True while the process with this id lives on this machine (signal 0 only asks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * True when a claim's holder is known to be gone without waiting for its expiry: an earlier
 * start of this very process id, or a process of this machine that no longer runs. A holder on
 * another machine is never known gone: its claim runs out instead.
 */
export function holderGone(holder: { owner: string; host: string; pid: number }, self: Claimant = THIS_PROCESS): boolean {
  if (holder.owner === self.owner || holder.host !== self.host) return false;
  return holder.pid === self.pid || !processAlive(holder.pid);
}

/** A claimant's parts from its name as THIS_PROCESS writes it; undefined for a name of another shape. */
export function claimantOf(owner: string): Claimant | undefined {
  const parts = /^(\d+)@(.*)#[^#]*$/.exec(owner);
  return parts ? { owner, pid: Number(parts[1]), host: parts[2] } : undefined;
}
