// A sealed survey's standings stay shut until its close: tally, export, report and publish
// refuse before expiration_date, unless an operator opens one run on the record.
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import { isExpired } from '../../survey/people/link.ts';
import { appendAudit } from '../../server/db/audit.repository.ts';
import { OperatorError } from '../operator.ts';

/** The commands that show a count per nominee, and so stay shut while a sealed survey runs. */
export const SEALED_COMMANDS = ['tally', 'export', 'report', 'publish'] as const;

/** How an operator asks to open a run: `--unseal` (or, for publish, `--force`), why, and who. */
export interface SealRequest {
  command: string;
  unseal: boolean;
  why: string | undefined;
  actor: string;
  now?: Date;
}

/** True when the survey is still before its close (a survey with no expiration_date never closes). */
export const beforeClose = (survey: LoadedSurvey, now = new Date()): boolean => !isExpired(survey.config, now.getTime());

/** The close in words, for a refusal. */
export const closeWords = (survey: LoadedSurvey): string =>
  survey.config.expiration_date ? `its close, ${survey.config.expiration_date}` : 'a close it does not have (survey.yaml sets no expiration_date)';

/**
 * Records an early opening on the audit trail (action `unseal`: who, when, why, which command)
 * before anything is read, or refuses in one line when no reason is given.
 */
export async function recordUnseal(db: Kysely<Database>, survey: LoadedSurvey, request: SealRequest, flag: string): Promise<void> {
  const why = request.why?.trim();
  if (!why)
    throw new OperatorError(`${flag} opens ${survey.slug} before ${closeWords(survey)}: say why with --why "…"; the audit trail keeps it with who and when.`);
  await appendAudit(db, {
    projectId: survey.config.project_id,
    actor: request.actor,
    action: 'unseal',
    subject: request.command,
    reason: why,
    details: { command: request.command, flag },
    now: request.now,
  });
}

/**
 * Lets a command that shows standings run: at once when the survey is not sealed or has
 * closed; before the close of a sealed survey only with `--unseal --why`, audited first.
 * Otherwise throws an OperatorError naming the close.
 */
export async function openSeal(db: Kysely<Database>, survey: LoadedSurvey, request: SealRequest): Promise<void> {
  if (!survey.config.results.sealed || !beforeClose(survey, request.now)) return;
  if (!request.unseal)
    throw new OperatorError(
      `${survey.slug} is sealed until ${closeWords(survey)}: ${request.command} shows no standings before then. Run it after the close, or add --unseal --why "…" (recorded on the audit trail).`,
    );
  await recordUnseal(db, survey, request, '--unseal');
}
