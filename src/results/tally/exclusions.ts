import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotExclusionRow } from '../../server/db/tables/ballot-exclusions.table.ts';
import { appendAudit } from '../../server/db/audit.repository.ts';
import { OperatorError } from '../operator.ts';
import { ballotInSurvey } from '../ballots/ballots.repository.ts';
import { deleteExclusion, exclusionOf, insertExclusion } from './tally.repository.ts';
import { quoted } from '../../survey/errors.ts';

/** What `exclude` and `include` are told: which ballot, why, by whom. */
export interface ExclusionChange {
  projectId: string;
  ballotId: string;
  why: string | undefined;
  by: string;
  now?: Date;
}

function checkWhy(why: string | undefined, command: string): string {
  const text = why?.trim() ?? '';
  if (!text) throw new OperatorError(`${command} needs --why "<the reason>": it goes into the tally's explanations and the audit trail.`);
  if (text.length > 500) throw new OperatorError(`--why is ${text.length} characters; say it in at most 500.`);
  return text;
}

/**
 * Takes a ballot out of the count: its row in `ballot_exclusions` and its audit entry, in one
 * transaction. A ballot that is not the survey's, or is excluded already, is refused.
 */
export async function excludeBallot(db: Kysely<Database>, change: ExclusionChange): Promise<BallotExclusionRow> {
  const why = checkWhy(change.why, 'exclude');
  return db.transaction().execute(async (trx) => {
    if (!(await ballotInSurvey(trx, change.projectId, change.ballotId)))
      throw new OperatorError(`There is no ballot ${quoted(change.ballotId)} in this survey (the ids are in export and signals).`);
    const known = await exclusionOf(trx, change.projectId, change.ballotId);
    if (known) throw new OperatorError(`Ballot ${change.ballotId} is excluded already (by ${known.excluded_by} at ${known.excluded_at}: ${known.reason}).`);
    const audit = await appendAudit(trx, {
      projectId: change.projectId,
      actor: change.by,
      action: 'exclude',
      subject: change.ballotId,
      reason: why,
      now: change.now,
    });
    const row: BallotExclusionRow = {
      ballot_id: change.ballotId,
      project_id: change.projectId,
      reason: why,
      audit_id: audit.id,
      excluded_by: change.by,
      excluded_at: audit.at,
    };
    await insertExclusion(trx, row);
    return row;
  });
}

/** Puts an excluded ballot back into the count, with its audit entry, in one transaction; a ballot not excluded is refused. */
export async function includeBallot(db: Kysely<Database>, change: ExclusionChange): Promise<BallotExclusionRow> {
  const why = checkWhy(change.why, 'include');
  return db.transaction().execute(async (trx) => {
    const known = await exclusionOf(trx, change.projectId, change.ballotId);
    if (!known) {
      throw new OperatorError(
        (await ballotInSurvey(trx, change.projectId, change.ballotId))
          ? `Ballot ${change.ballotId} is not excluded; there is nothing to include.`
          : `There is no ballot "${change.ballotId}" in this survey (the ids are in export and signals).`,
      );
    }
    await appendAudit(trx, {
      projectId: change.projectId,
      actor: change.by,
      action: 'include',
      subject: change.ballotId,
      reason: why,
      details: { excluded_by: known.excluded_by, excluded_at: known.excluded_at, excluded_audit_id: known.audit_id },
      now: change.now,
    });
    await deleteExclusion(trx, change.ballotId);
    return known;
  });
}
