import type { Kysely } from 'kysely';
import { appendAudit } from '../server/db/audit.repository.ts';
import type { Database } from '../server/db/schema.ts';
import type { RefusedBallotRow } from '../server/db/tables/refused-ballots.table.ts';
import type { BallotLink } from '../server/db/tables/ballots.table.ts';
import type { LoadedSurvey } from '../survey/config/loader.ts';
import type { PersonValues } from '../survey/config/config.struct.ts';
import { formDataToBallot } from '../survey/ballots/ballot-input.ts';
import { withReadOnlyValues } from '../survey/ballots/read-only.ts';
import { ballotParts } from '../survey/ballots/ballot-parts.ts';
import { voterFields } from '../survey/people/voter.ts';
import { DEMO_SECRET } from '../survey/people/link.ts';
import { personOf } from '../survey/people/secrets.ts';
import { AlreadySubmittedError, storeBallot } from '../server/intake/ballots.repository.ts';
import { findRefusedBallot, markAdmitted, refusedBallots, unmarkAdmitted } from '../server/intake/refused-ballots.repository.ts';
import { uuidv7 } from '../server/ids.ts';
import { csvLine } from './export/csv.ts';
import { OperatorError } from './operator.ts';

const FIXED_COLUMNS = ['id', 'received_at', 'reason', 'problems', 'email', 'files', 'admitted_at', 'admitted_by', 'admit_reason', 'ballot_id'];

const partsOf = (row: RefusedBallotRow) => JSON.parse(row.fields) as Array<[string, string]>;

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

/** What an admission did: the refused ballot's id and the ballot it became. */
export interface Admission {
  refusedId: string;
  ballotId: string;
  at: string;
}

/**
 * Admits a refused ballot into the ballots, through the same storage as a ballot the API takes
 * (answers, nominations, write-ins, reservations claimed now), with the prepopulated and
 * read-only values of its personal link applied, and records who, when and why. The operator's
 * word overrides the rule that refused it; a link's one ballot and a second admission do not
 * yield. Files were not kept, so an admitted ballot has none.
 */
export async function admitRefused(
  db: Kysely<Database>,
  context: { survey: LoadedSurvey; prepopulation: Record<string, PersonValues> },
  admission: { id: string; by: string; why: string; now?: Date },
): Promise<Admission> {
  const { survey, prepopulation } = context;
  const row = await findRefusedBallot(db, survey.config.project_id, admission.id);
  if (!row) throw new OperatorError(`There is no refused ballot ${admission.id} in ${survey.slug}; the refused command lists them.`);
  if (row.admitted_at)
    throw new OperatorError(`Refused ballot ${row.id} was admitted already, as ballot ${row.ballot_id}, by ${row.admitted_by} at ${row.admitted_at}.`);
  if (!admission.why.trim()) throw new OperatorError('Say why the ballot is admitted: --why "…".');

  const form = new FormData();
  for (const [name, value] of partsOf(row)) form.append(name, value);
  const person = personOf(prepopulation, row.secret ?? undefined);
  const link: BallotLink = row.secret === DEMO_SECRET ? 'demo' : person ? 'personal' : 'public';
  const ballot = withReadOnlyValues(survey.config.layout, person, formDataToBallot(form));
  const { files: _notKept, ...parts } = ballotParts(survey.config, ballot);
  const now = admission.now ?? new Date();
  const ballotId = uuidv7(now.getTime());

  if (!(await markAdmitted(db, row.id, { at: now, by: admission.by, why: admission.why.trim(), ballotId }))) {
    throw new OperatorError(`Refused ballot ${row.id} was admitted already.`);
  }
  try {
    await storeBallot(db, {
      id: ballotId,
      projectId: survey.config.project_id,
      link,
      personalSecret: link === 'personal' ? row.secret : null,
      createdAt: now,
      parts,
      uploads: [],
    });
  } catch (error) {
    await unmarkAdmitted(db, row.id);
    if (error instanceof AlreadySubmittedError)
      throw new OperatorError(`Refused ballot ${row.id} came by a personal link that has a ballot already; a link holds one ballot.`);
    throw error;
  }
  await appendAudit(db, {
    projectId: survey.config.project_id,
    actor: admission.by,
    action: 'admit',
    subject: row.id,
    reason: admission.why.trim(),
    details: { ballot_id: ballotId, refused_for: row.reason },
    now,
  });
  return { refusedId: row.id, ballotId, at: now.toISOString() };
}
