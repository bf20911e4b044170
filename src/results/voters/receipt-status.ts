import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { BallotRow } from '../../server/db/tables/ballots.table.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { formatReceipt, normalizeReceipt } from '../../survey/published/receipt-code.ts';
import { ballotByReceipt } from '../../server/receipts/receipts.ts';
import { ballotExclusions } from '../tally/tally.repository.ts';
import { tallySurvey, type Exclusion } from '../tally/tally.ts';
import { OperatorError } from '../operator.ts';
import { readPseudonymKey } from './pseudonym-key.ts';
import { quoted } from '../../survey/errors.ts';

/** What the operator learns of a receipt: its ballot, and how the tally treats that ballot's votes. */
export interface ReceiptStatus {
  code: string;
  ballot: BallotRow;
  votes: number;
  counted: number;
  /** Every vote of the ballot the tally leaves out, with its reason. */
  exclusions: Exclusion[];
}

/**
 * Looks a receipt up and runs the tally as `tally` would, keeping what it says of that ballot:
 * how many of its votes count and why the others do not. Throws an OperatorError for a code that
 * is malformed or that no ballot of the survey carries.
 */
export async function receiptStatus(
  db: Kysely<Database>,
  input: { survey: LoadedSurvey; nominees: readonly Nominee[]; prepopulation: Record<string, PersonValues>; code: string },
): Promise<ReceiptStatus> {
  const code = normalizeReceipt(input.code);
  if (!code) throw new OperatorError(`${quoted(input.code)} is not a receipt code: 12 letters and digits, such as 7K3M-Q9TD-2XHB.`);
  const ballot = await ballotByReceipt(db, input.survey.config.project_id, code);
  if (!ballot) throw new OperatorError(`No ballot of ${input.survey.slug} has the receipt ${formatReceipt(code)}.`);
  const exclusions: Exclusion[] = [];
  const votes = { all: 0 };
  await tallySurvey(db, {
    ...input,
    pseudonymKey: readPseudonymKey(input.survey),
    excludedBallots: await ballotExclusions(db, input.survey.config.project_id),
    onExclusion: (exclusion) => {
      // A vote a rule set to `flag` marks is counted all the same: only the excluded are listed.
      if (exclusion.ballotId === ballot.id && !exclusion.verdict.counted) exclusions.push(exclusion);
    },
    onVerdicts: (ballotId, verdicts) => {
      if (ballotId === ballot.id) votes.all = verdicts;
    },
  });
  return { code, ballot, votes: votes.all, counted: votes.all - exclusions.length, exclusions };
}
