// The signals of a survey: its ballots read as the detectors see them, and every cluster the
// detectors find among them.
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config.struct.ts';
import type { LoadedSurvey } from '../../survey/loader.ts';
import type { Nominee } from '../../survey/nominee.struct.ts';
import { personOf } from '../../survey/secrets.ts';
import { answersByField, childRows, nominationRows, readBallots } from '../ballots/ballot-reader.ts';
import { licenseKey, nameKey } from '../tally/identity-keys.ts';
import { voterFieldNames, voterFields } from '../../survey/voter.ts';
import { voterOf } from '../tally/voter.ts';
import { addressBursts, deviceBursts, fastBallots, nomineeBursts } from './signals-time.ts';
import { licenseSignals, nearIdentical } from './signals-ballots.ts';
import { blocs, reciprocalNominations } from './signals-ties.ts';
import { DEFAULT_THRESHOLDS, SIGNAL_KINDS, type NomineeName, type SignalBallot, type SignalCluster, type SignalThresholds } from './signal-model.ts';

/** What reading the ballots for the signals needs besides the database. */
export interface SignalsInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  onProgress?: (ballots: number) => void;
}

/**
 * A survey's ballots as the signals see them, in the order received, demo ballots left out.
 * A voter is tied to the nominee list by the `nominee_id` of their personal link, else by a
 * license number that is a listed nominee's.
 */
export async function signalBallots(db: Kysely<Database>, { survey, nominees, prepopulation, onProgress }: SignalsInput): Promise<SignalBallot[]> {
  const fields = voterFields(survey.config);
  const byLicense = new Map(nominees.filter((n) => licenseKey(n.license)).map((n) => [licenseKey(n.license), n.id]));
  const answerFields = voterFieldNames(fields);
  const answersOf = answersByField(answerFields);
  const ballots: SignalBallot[] = [];
  let read = 0;
  for await (const page of readBallots(db, survey.config.project_id, { answerFields, children: ['nominations', 'writeIns'], hashes: true })) {
    read += page.length;
    for (const ballot of page) {
      if (ballot.link === 'demo') continue;
      const voter = voterOf(fields, answersOf(ballot), personOf(prepopulation, ballot.personal_secret ?? undefined));
      ballots.push({
        id: ballot.id,
        at: Date.parse(ballot.created_at),
        clientHash: ballot.client_hash ?? null,
        agentHash: ballot.agent_hash ?? null,
        fillSeconds: ballot.fill_seconds,
        email: voter.email,
        license: voter.license,
        nomineeId: voter.nomineeId ?? (voter.license ? byLicense.get(voter.license) : undefined),
        votes: nominationRows(ballot.children.nominations, (group, subcategory, _slot, nomineeId) => ({ group, subcategory, nomineeId })),
        writeIns: childRows<[string, string, string]>(ballot.children.writeIns).map(
          ([group, subcategory, name]) => `${group} / ${subcategory} / ${nameKey(name)}`,
        ),
      });
    }
    onProgress?.(read);
  }
  return ballots;
}

/**
 * Every cluster the signals find among a survey's ballots (demo ballots left out), strongest
 * first. Flags, never verdicts: an operator decides with `results exclude`.
 */
export function detectSignals(
  ballots: readonly SignalBallot[],
  thresholds: SignalThresholds = DEFAULT_THRESHOLDS,
  name: NomineeName = (id) => id,
): SignalCluster[] {
  const clusters = [
    ...addressBursts(ballots, thresholds),
    ...deviceBursts(ballots, thresholds),
    ...nomineeBursts(ballots, thresholds, name),
    ...fastBallots(ballots, thresholds),
    ...nearIdentical(ballots, thresholds),
    ...licenseSignals(ballots),
    ...reciprocalNominations(ballots, name),
    ...blocs(ballots, thresholds, name),
  ];
  return clusters.sort((a, b) => b.score - a.score || SIGNAL_KINDS.indexOf(a.kind) - SIGNAL_KINDS.indexOf(b.kind) || b.ballotIds.length - a.ballotIds.length);
}
