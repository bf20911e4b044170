import type { Kysely } from 'kysely';
import { appendAudit, type ActSigner } from '../server/db/audit.repository.ts';
import type { Database } from '../server/db/schema.ts';
import type { RefusedBallotRow } from '../server/db/tables/refused-ballots.table.ts';
import type { BallotLink } from '../server/db/tables/ballots.table.ts';
import type { LoadedSurvey } from '../survey/config/loader.ts';
import type { PersonValues } from '../survey/config/config.struct.ts';
import { formDataToBallot, type BallotInput } from '../survey/ballots/ballot-input.ts';
import { withReadOnlyValues } from '../survey/ballots/read-only.ts';
import { ballotParts, type BallotParts } from '../survey/ballots/ballot-parts.ts';
import { stripStrayControls } from '../survey/ballots/control-characters.ts';
import { voterFields } from '../survey/people/voter.ts';
import { DEMO_SECRET } from '../survey/people/link.ts';
import { AlreadySubmittedError, storeBallot } from '../server/intake/ballots.repository.ts';
import { findRefusedBallot, markAdmitted, refusedBallots } from '../server/intake/refused-ballots.repository.ts';
import { personBySecret } from '../server/people/people.repository.ts';
import { uuidv7 } from '../server/ids.ts';
import { csvLine } from './export/csv.ts';

const FIXED_COLUMNS = ['id', 'received_at', 'reason', 'problems', 'email', 'files', 'admitted_at', 'admitted_by', 'admit_reason', 'ballot_id'];

const partsOf = (row: Pick<RefusedBallotRow, 'fields'>) => JSON.parse(row.fields) as Array<[string, string]>;

/**
 * A survey's refused ballots as CSV: id, when, the refusal's code and problems, the voter's
 * email (the answer to the voter's email field, voterFields), file names, the admission if any, then one column
 * per form-data name the ballots carry (repeated names joined by " | ").
 */
export async function refusedCsv(db: Kysely<Database>, survey: LoadedSurvey): Promise<string> {
  const rows = await refusedBallots(db, survey.config.project_id);
  const emailField = voterFields(survey.config).email;
  const names: string[] = [];
  for (const row of rows) for (const [name] of partsOf(row)) if (!names.includes(name)) names.push(name);
  let out = csvLine([...FIXED_COLUMNS, ...names]);
  for (const row of rows) {
    const values = new Map<string, string[]>();
    for (const [name, value] of partsOf(row)) values.set(name, [...(values.get(name) ?? []), value]);
    const problems = (JSON.parse(row.problems) as Array<{ path: string; message: string }>).map((p) => `${p.path}: ${p.message}`).join('; ');
    const files = (JSON.parse(row.files) as Array<{ field: string; name: string; size: number }>)
      .map((f) => `${f.field}: ${f.name} (${f.size} bytes)`)
      .join('; ');
    out += csvLine([
      row.id,
      row.received_at,
      row.reason,
      problems,
      emailField ? values.get(emailField)?.join(' | ') : '',
      files,
      row.admitted_at,
      row.admitted_by,
      row.admit_reason,
      row.ballot_id,
      ...names.map((name) => values.get(name)?.join(' | ')),
    ]);
  }
  return out;
}

/** The longest reason an admission takes, in characters: a sentence or a short paragraph. */
export const ADMIT_REASON_MAX = 500;

/** What is wrong with a reason given for an admission: none given, too long, or holding a NUL character (which no text may hold). */
export type ReasonProblem = 'missing' | 'too_long' | 'nul';

/**
 * The reason of an admission as it is kept (trimmed, without stray control characters), or what
 * is wrong with it: the command line's `--why` and the console's "Reason" box both follow it.
 */
export function admitReason(text: string | undefined): { reason: string } | { problem: ReasonProblem; length: number } {
  if (text === undefined) return { problem: 'missing', length: 0 };
  if (text.includes('\u0000')) return { problem: 'nul', length: text.length };
  const reason = stripStrayControls(text).trim();
  const length = [...reason].length;
  if (length === 0) return { problem: 'missing', length };
  if (length > ADMIT_REASON_MAX) return { problem: 'too_long', length };
  return { reason };
}

/** A refused ballot as the voter sent it, as a ballot's input (text parts only: files were not kept). */
function sentBallot(row: Pick<RefusedBallotRow, 'fields'>): BallotInput {
  const form = new FormData();
  for (const [name, value] of partsOf(row)) form.append(name, value);
  return formDataToBallot(form);
}

/** What a refused ballot holds as the voter sent it, taken apart as a stored ballot is: answers, votes, write-ins, reservations. */
export function refusedParts(survey: LoadedSurvey, row: Pick<RefusedBallotRow, 'fields'>): Omit<BallotParts, 'files'> {
  const { files: _none, ...parts } = ballotParts(survey.config, sentBallot(row));
  return parts;
}

/** What came of an admission: admitted (the refused ballot's id and the ballot it became), or why not, changing nothing. */
export type AdmitOutcome =
  | { outcome: 'admitted'; refusedId: string; ballotId: string; at: string }
  | { outcome: 'unknown' }
  | { outcome: 'admitted_already'; ballotId: string; by: string; at: string }
  | { outcome: 'link_has_ballot' }
  | { outcome: 'bad_reason'; problem: ReasonProblem; length: number };

/** A refused ballot's admission as its row holds it, once admitted. */
function admissionOf(row: RefusedBallotRow): Extract<AdmitOutcome, { outcome: 'admitted_already' }> {
  return { outcome: 'admitted_already', ballotId: row.ballot_id ?? '', by: row.admitted_by ?? '', at: row.admitted_at ?? '' };
}

/**
 * Admits a refused ballot into the ballots, through the same storage as a ballot the API takes
 * (answers, nominations, write-ins, reservations claimed now), with the prepopulated and
 * read-only values of its personal link applied, and records who, when and why on its row and in
 * the audit trail, all in one transaction. The operator's word overrides the rule that refused
 * it; a link's one ballot and a second admission do not yield: of two admissions at once (two
 * tabs, two commands), one admits and the other is told it was admitted already. Files were not
 * kept, so an admitted ballot has none. The command line (`results admit`) and the console call
 * this one function.
 */
export async function admitRefused(
  db: Kysely<Database>,
  survey: LoadedSurvey,
  admission: { id: string; why: string | undefined; by: ActSigner; now?: Date },
): Promise<AdmitOutcome> {
  const given = admitReason(admission.why);
  if ('problem' in given) return { outcome: 'bad_reason', ...given };
  const projectId = survey.config.project_id;
  const row = await findRefusedBallot(db, projectId, admission.id);
  if (!row) return { outcome: 'unknown' };
  if (row.admitted_at) return admissionOf(row);

  const person: PersonValues | undefined = row.secret && row.secret !== DEMO_SECRET ? await personBySecret(db, projectId, row.secret) : undefined;
  const link: BallotLink = row.secret === DEMO_SECRET ? 'demo' : person ? 'personal' : 'public';
  const ballot = withReadOnlyValues(survey.config.layout, person, sentBallot(row));
  const { files: _notKept, ...parts } = ballotParts(survey.config, ballot);
  const now = admission.now ?? new Date();
  const ballotId = uuidv7(now.getTime());
  const by = admission.by;

  try {
    const marked = await db.transaction().execute(async (trx) => {
      // The mark first: of two admissions at once, the second waits here for the first to end, then finds the row admitted.
      if (!(await markAdmitted(trx, row.id, { at: now, by: by.actor, why: given.reason, ballotId }))) return false;
      await storeBallot(trx, {
        id: ballotId,
        projectId,
        link,
        personalSecret: link === 'personal' ? row.secret : null,
        createdAt: now,
        parts,
        uploads: [],
      });
      await appendAudit(trx, {
        projectId,
        ...by,
        action: 'admit',
        subject: row.id,
        reason: given.reason,
        details: { ballot_id: ballotId, refused_for: row.reason },
        now,
      });
      return true;
    });
    if (!marked) {
      const current = await findRefusedBallot(db, projectId, row.id);
      return current ? admissionOf(current) : { outcome: 'unknown' };
    }
  } catch (error) {
    if (error instanceof AlreadySubmittedError) return { outcome: 'link_has_ballot' };
    throw error;
  }
  return { outcome: 'admitted', refusedId: row.id, ballotId, at: now.toISOString() };
}
