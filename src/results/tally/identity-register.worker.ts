// The duplicate register (scratchRegister) in a thread of its own: the tally posts a page of
// ballots' identity keys and goes on counting the page before while the register looks them up
// and stores them. Answers come back in the order the pages were posted. Both travel as flat
// lists of strings and numbers (see threadRegister), which cost a fraction of objects to copy
// between threads.
import { parentPort } from 'node:worker_threads';
import { KIND_NAMES, scratchRegister, type IdentityKey } from './identities.ts';

if (parentPort) {
  const port = parentPort;
  const register = scratchRegister();
  port.on('message', async (flat: Array<string | number> | null) => {
    if (flat === null) {
      register.close();
      port.close();
      return;
    }
    const ballots: Array<{ id: string; keys: IdentityKey[] }> = [];
    for (let i = 0; i < flat.length; ) {
      const id = flat[i++] as string;
      const keys: IdentityKey[] = [];
      for (let n = flat[i++] as number; n > 0; n--) keys.push({ by: KIND_NAMES[flat[i++] as number], key: flat[i++] as string });
      ballots.push({ id, keys });
    }
    const answers: Array<string | number> = [];
    (await register.check(ballots)).forEach((found, i) => found && answers.push(i, found.ballotId, found.by));
    port.postMessage(answers);
  });
}
