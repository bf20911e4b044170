// The duplicate register (scratchRegister) in a thread of its own: the tally posts a page of
// ballots' identity keys and goes on counting the page before while the register looks them up
// and stores them. Answers come back in the order the pages were posted.
import { parentPort } from 'node:worker_threads';
import { scratchRegister, type IdentityKey } from './identities.ts';

if (parentPort) {
  const port = parentPort;
  const register = scratchRegister();
  port.on('message', async (ballots: Array<{ id: string; keys: IdentityKey[] }> | null) => {
    if (ballots === null) {
      register.close();
      port.close();
      return;
    }
    port.postMessage(await register.check(ballots));
  });
}
