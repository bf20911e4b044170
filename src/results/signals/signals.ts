// The signals of a survey: its ballots read as the detectors see them, and every cluster the
// detectors find among them.
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { personOf } from '../../survey/people/secrets.ts';
import { answersByField, childRows, nominationRows, readBallots } from '../ballots/ballot-reader.ts';
import { licenseKey } from '../tally/identity-keys.ts';
import { nameKey } from '../../survey/nominees/name-key.ts';
import { voterFieldNames, voterFields, type VoterFields } from '../../survey/people/voter.ts';
import { countBallots } from '../ballots/ballots.repository.ts';
import { voterOf } from '../tally/voter.ts';
import { addressBursts, deviceBursts, fastBallots, nomineeBursts } from './signals-time.ts';
import { licenseSignals, nearIdentical } from './signals-ballots.ts';
import { blocs, reciprocalNominations } from './signals-ties.ts';
import { DEFAULT_THRESHOLDS, SIGNAL_KINDS, type NomineeName, type SignalCluster, type SignalKind, type SignalThresholds } from './signal-model.ts';
import { clusterSize, distinctBallots, SignalTableBuilder, type SignalTable } from './signal-table.ts';

/** What reading the ballots for the signals needs besides the database. */
export interface SignalsInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  onProgress?: (ballots: number) => void;
}

/**
 * A survey's ballots as the signals see them, in the order received, demo ballots left out,
 * held column by column (SignalTable). A voter is tied to the nominee list by the `nominee_id`
 * of their personal link, else by a license number that is a listed nominee's. Only the answers
 * that say who voted are read: the email and the license.
 */
export async function signalBallots(db: Kysely<Database>, { survey, nominees, prepopulation, onProgress }: SignalsInput): Promise<SignalTable> {
  const { email, license } = voterFields(survey.config);
  const fields: VoterFields = { email, license, name: [] };
  const byLicense = new Map(nominees.filter((n) => licenseKey(n.license)).map((n) => [licenseKey(n.license), n.id]));
  const answerFields = voterFieldNames(fields);
  const answersOf = answersByField(answerFields);
  const table = new SignalTableBuilder(await countBallots(db, survey.config.project_id));
  let read = 0;
  for await (const page of readBallots(db, survey.config.project_id, { answerFields, children: ['nominations', 'writeIns'], hashes: true })) {
    read += page.length;
    for (const ballot of page) {
      if (ballot.link === 'demo') continue;
      const voter = voterOf(fields, answersOf(ballot), personOf(prepopulation, ballot.personal_secret ?? undefined));
      table.ballot(
        ballot.id,
        Date.parse(ballot.created_at),
        ballot.client_hash ?? null,
        ballot.agent_hash ?? null,
        ballot.fill_seconds,
        voter.email,
        voter.license,
        voter.nomineeId ?? (voter.license ? byLicense.get(voter.license) : undefined),
      );
      nominationRows(ballot.children.nominations, (group, subcategory, _slot, nomineeId) => table.vote(group, subcategory, nomineeId));
      for (const [group, subcategory, name] of childRows<[string, string, string]>(ballot.children.writeIns))
        table.writeIn(`${group} / ${subcategory} / ${nameKey(name)}`);
    }
    onProgress?.(read);
  }
  return table.finish();
}

/**
 * Every cluster the signals find among a survey's ballots (demo ballots left out), strongest
 * first. Flags, never verdicts: an operator decides with `results exclude`.
 */
export function detectSignals(ballots: SignalTable, thresholds: SignalThresholds = DEFAULT_THRESHOLDS, name: NomineeName = (id) => id): SignalCluster[] {
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
  return clusters.sort((a, b) => b.score - a.score || SIGNAL_KINDS.indexOf(a.kind) - SIGNAL_KINDS.indexOf(b.kind) || clusterSize(b) - clusterSize(a));
}

/** What a look for signals found: its clusters and the distinct ballots they name, in all and for each kind (every kind, in the detectors' order). */
export interface SignalCounts {
  clusters: number;
  ballotsNamed: number;
  kinds: Array<{ kind: SignalKind; clusters: number; ballotsNamed: number }>;
}

/** Counts clusters by kind, each ballot named once per kind and once in all however many clusters name it. */
export function countSignals(clusters: readonly SignalCluster[]): SignalCounts {
  return {
    clusters: clusters.length,
    ballotsNamed: distinctBallots(clusters),
    kinds: SIGNAL_KINDS.map((kind) => {
      const of = clusters.filter((cluster) => cluster.kind === kind);
      return { kind, clusters: of.length, ballotsNamed: distinctBallots(of) };
    }),
  };
}
