// The mail transport (createMailTransport) in a thread of its own, for transportThread: each
// message posted as { id, survey, message } is sent, and its outcome posted back with its id, in
// the order the server answers; `null` closes the pool, and the thread ends once its connections have.
import { parentPort, workerData } from 'node:worker_threads';
import { createMailTransport, type MailMessage, type MailSettings, type MailSurvey } from './transport.ts';

/** A message to send, as the thread is handed it. */
export interface TransportJob {
  id: number;
  survey: MailSurvey;
  message: MailMessage;
}

/** What the thread answers: the message's outcome, or why sending threw (a fault, not a server's answer). */
export type TransportAnswer = { id: number; outcome: Awaited<ReturnType<ReturnType<typeof createMailTransport>['send']>> } | { id: number; error: string };

if (parentPort) {
  const port = parentPort;
  const transport = createMailTransport(workerData as MailSettings);
  port.on('message', (job: TransportJob | null) => {
    if (job === null) {
      transport.close();
      port.close();
      return;
    }
    transport.send(job.survey, job.message).then(
      (outcome) => port.postMessage({ id: job.id, outcome } satisfies TransportAnswer),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies TransportAnswer),
    );
  });
}
