import { answeringThread } from '../../server/answering-thread.ts';
import { transportPlace, type MailSettings, type MailTransport } from '../../mail/transport.ts';
import type { TransportAnswer, TransportJob } from './transport.worker.ts';
import { threadModule } from '../thread-module.ts';

/**
 * The mail transport run by a thread of its own (transport.worker.ts): building each message and
 * speaking SMTP, most of a send's processor time, go on beside the caller's own work (choosing,
 * rendering and recording the next messages) instead of taking turns with it. Messages are
 * answered as their server answers them. If the thread fails or ends, every message waiting and
 * every one sent after is refused with why, never left waiting: a message it may have handed over
 * is then neither sent nor refused, and the caller leaves it as it was (in flight).
 */
export function transportThread(settings: MailSettings): MailTransport {
  // Its heap is V8's as for any thread: building a message makes much short-lived garbage, and a
  // young generation of 16 MB tripled the time the thread spent collecting it (a cap on the old
  // generation alone shrinks the young one with it, and was worse still).
  const thread = answeringThread<TransportJob, TransportAnswer>(
    threadModule(new URL('./transport.worker.ts', import.meta.url)),
    "The mail transport's thread",
    {
      workerData: { ...settings },
      keyed: true,
    },
  );
  return {
    description: transportPlace(settings),
    async send(survey, message) {
      // Only what the message and its survey's `mail:` block say crosses to the thread.
      const answer = await thread.ask({ survey: { slug: survey.slug, config: { mail: survey.config.mail } }, message });
      if ('error' in answer) throw new Error(answer.error);
      return answer.outcome;
    },
    close() {
      void thread.close();
    },
  };
}
