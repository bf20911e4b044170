import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotExclusionRow } from '../../server/db/tables/ballot-exclusions.table.ts';
import { appendAudit, lockTrail, type ActSigner } from '../../server/db/audit.repository.ts';
import { OperatorError } from '../operator.ts';
import { admitReason, type ReasonProblem } from '../refused.ts';
import { ballotInSurvey } from '../ballots/ballots.repository.ts';
import { deleteExclusion, exclusionOf, insertExclusion, lastRestoreOf } from './tally.repository.ts';
import { quoted } from '../../survey/errors.ts';

/** What `exclude` and `include` are told: which ballot, why, by whom (a name, or the console's signer). */
export interface ExclusionChange {
  projectId: string;
  ballotId: string;
  why: string | undefined;
  by: string | ActSigner;
  now?: Date;
}

/** An act on a ballot's place in the count: `exclude` takes it out, `include` (the console's "Restore") puts it back. */
export type ExclusionAct = 'exclude' | 'include';

/** Who did an act, when and why, as the trail keeps it. */
export interface ActDone {
  by: string;
  at: string;
  reason: string;
}

/** What came of an exclusion or a restore: done, or why not, changing nothing. */
export type ExclusionOutcome =
  | { outcome: 'excluded'; row: BallotExclusionRow }
  | { outcome: 'included'; row: BallotExclusionRow }
  | { outcome: 'unknown_ballot' }
  | { outcome: 'excluded_already'; done: ActDone }
  /** Not excluded: `done` names the restore that put it back, when there was one. */
  | { outcome: 'not_excluded'; done?: ActDone }
  | { outcome: 'bad_reason'; problem: ReasonProblem; length: number };

/**
 * Takes a ballot out of the count (`exclude`: its row in `ballot_exclusions`) or puts it back
 * (`include`: the row deleted), with its audit entry, in one transaction; the tally, the report,
 * the receipt check and publication read `ballot_exclusions` as it stands, so they follow at
 * once. The reason follows the rule of every operator's reason (admitReason). The survey's trail
 * is held first, so of two acts at once on one ballot (two tabs, the console and the command
 * line) the second waits for the first to end and is then told who did it. The command line
 * (`results exclude`, `results include`) and the console's signals page call this one function.
 */
export async function changeExclusion(db: Kysely<Database>, act: ExclusionAct, change: ExclusionChange): Promise<ExclusionOutcome> {
  const given = admitReason(change.why);
  if ('problem' in given) return { outcome: 'bad_reason', ...given };
  const signer: ActSigner = typeof change.by === 'string' ? { actor: change.by } : change.by;
  const { projectId, ballotId } = change;
  return db.transaction().execute(async (trx): Promise<ExclusionOutcome> => {
    await lockTrail(trx, projectId);
    const known = await exclusionOf(trx, projectId, ballotId);
    if (act === 'exclude') {
      if (known) return { outcome: 'excluded_already', done: { by: known.excluded_by, at: known.excluded_at, reason: known.reason } };
      if (!(await ballotInSurvey(trx, projectId, ballotId))) return { outcome: 'unknown_ballot' };
      const audit = await appendAudit(trx, { projectId, ...signer, action: 'exclude', subject: ballotId, reason: given.reason, now: change.now });
      const row: BallotExclusionRow = {
        ballot_id: ballotId,
        project_id: projectId,
        reason: given.reason,
        audit_id: audit.id,
        excluded_by: signer.actor,
        excluded_at: audit.at,
      };
      await insertExclusion(trx, row);
      return { outcome: 'excluded', row };
    }
    if (!known) {
      if (!(await ballotInSurvey(trx, projectId, ballotId))) return { outcome: 'unknown_ballot' };
      const restored = await lastRestoreOf(trx, projectId, ballotId);
      return { outcome: 'not_excluded', ...(restored ? { done: restored } : {}) };
    }
    await appendAudit(trx, {
      projectId,
      ...signer,
      action: 'include',
      subject: ballotId,
      reason: given.reason,
      details: { excluded_by: known.excluded_by, excluded_at: known.excluded_at, excluded_audit_id: known.audit_id },
      now: change.now,
    });
    await deleteExclusion(trx, ballotId);
    return { outcome: 'included', row: known };
  });
}

function checkWhy(why: string | undefined, command: string): string {
  const text = why?.trim() ?? '';
  if (!text) throw new OperatorError(`${command} needs --why "<the reason>": it goes into the tally's explanations and the audit trail.`);
  if (text.length > 500) throw new OperatorError(`--why is ${text.length} characters; say it in at most 500.`);
  if (text.includes('\u0000')) throw new OperatorError('--why holds a NUL character (U+0000), which no text may hold.');
  return text;
}

/** The command line's words for an outcome that changed nothing. */
function refusedWords(outcome: Exclude<ExclusionOutcome, { outcome: 'excluded' | 'included' }>, ballotId: string): string {
  switch (outcome.outcome) {
    case 'unknown_ballot':
      return `There is no ballot ${quoted(ballotId)} in this survey (the ids are in export and signals).`;
    case 'excluded_already':
      return `Ballot ${ballotId} is excluded already (by ${outcome.done.by} at ${outcome.done.at}: ${outcome.done.reason}).`;
    case 'not_excluded':
      return `Ballot ${ballotId} is not excluded; there is nothing to include.${outcome.done ? ` It was put back by ${outcome.done.by} at ${outcome.done.at}.` : ''}`;
    case 'bad_reason':
      return `--why will not do (${outcome.problem.replace('_', ' ')}): give a reason of at most 500 characters.`;
  }
}

/** Takes a ballot out of the count (changeExclusion), as `results exclude` does; anything that changes nothing is thrown as one line. */
export async function excludeBallot(db: Kysely<Database>, change: ExclusionChange): Promise<BallotExclusionRow> {
  const why = checkWhy(change.why, 'exclude');
  const outcome = await changeExclusion(db, 'exclude', { ...change, why });
  if (outcome.outcome === 'excluded' || outcome.outcome === 'included') return outcome.row;
  throw new OperatorError(refusedWords(outcome, change.ballotId));
}

/** Puts an excluded ballot back into the count (changeExclusion), as `results include` does; a ballot not excluded is refused. */
export async function includeBallot(db: Kysely<Database>, change: ExclusionChange): Promise<BallotExclusionRow> {
  const why = checkWhy(change.why, 'include');
  const outcome = await changeExclusion(db, 'include', { ...change, why });
  if (outcome.outcome === 'excluded' || outcome.outcome === 'included') return outcome.row;
  throw new OperatorError(refusedWords(outcome, change.ballotId));
}
