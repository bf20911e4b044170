// The mail transport (createMailTransport) in a thread of its own, for transportThread: each
// message posted as { id, body: { survey, message } } is sent, and its outcome posted back with
// its id, in the order the server answers (a keyed answeringThread); `null` closes the pool, and
// the thread ends once its connections have.
import { parentPort, workerData } from 'node:worker_threads';
import type { Keyed } from '../../server/answering-thread.ts';
import { createMailTransport, type MailMessage, type MailOutcome, type MailSettings, type MailSurvey } from '../../mail/transport.ts';

/** A message to send, as the thread is handed it. */
export interface TransportJob {
  survey: MailSurvey;
  message: MailMessage;
}

/** What the thread answers: the message's outcome, or why sending threw (a fault, not a server's answer). */
export type TransportAnswer = { outcome: MailOutcome } | { error: string };

if (parentPort) {
  const port = parentPort;
  const transport = createMailTransport(workerData as MailSettings);
  port.on('message', (job: Keyed<TransportJob> | null) => {
    if (job === null) {
      transport.close();
      port.close();
      return;
    }
    const answer = (body: TransportAnswer) => port.postMessage({ id: job.id, body } satisfies Keyed<TransportAnswer>);
    transport.send(job.body.survey, job.body.message).then(
      (outcome) => answer({ outcome }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
