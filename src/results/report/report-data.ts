import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { AuditRow } from '../../server/db/tables/audit-log.table.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { participation } from '../../server/stats/stats.repository.ts';
import { latestAudit } from '../../server/db/audit.repository.ts';
import { exclusionList } from '../tally/tally.repository.ts';
import type { BallotExclusionRow } from '../../server/db/tables/ballot-exclusions.table.ts';
import { methodologyText } from '../tally/methodology.ts';
import { readPseudonymKey } from '../voters/pseudonym-key.ts';
import { DEFAULT_TALLY, EXCLUSION_REASONS, reasonText, type ExclusionReason } from '../tally/rules.ts';
import { SIGNAL_KINDS, SIGNAL_TEXT, type SignalCluster, type SignalKind } from '../signals/signal-model.ts';
import { distinctBallots } from '../signals/signal-table.ts';
import { tallySurvey, type Tally } from '../tally/tally.ts';
import { rankTally, type SubcategoryResult } from '../tally/tally-report.ts';

/** Everything the results report shows, computed once: the HTML only lays it out. */
export interface ReportData {
  slug: string;
  title: string;
  generatedAt: string;
  /** The newest audit entry: the state of the operators' decisions the figures reflect. */
  latestAudit?: AuditRow;
  tally: Tally;
  results: SubcategoryResult[];
  /** Ballots received per day (UTC), demo ballots left out. */
  perDay: Array<{ day: string; ballots: number }>;
  /** Ballots an operator excluded. */
  ballotsExcluded: number;
  /** Those ballots with who excluded them, when and why, oldest first. */
  operatorExclusions: BallotExclusionRow[];
  votesExcluded: number;
  exclusions: Array<{ reason: ExclusionReason; votes: number; text: string }>;
  signals: Array<{ kind: SignalKind; text: string; clusters: number; ballots: number; strongest: number }>;
  clusters: SignalCluster[];
  methodology: string;
}

/** What the report reads besides the database. */
export interface ReportInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  /** The signals' clusters, found before the tally reads the ballots: the signals' columns and the tally's pages never share the memory. */
  findClusters: () => Promise<SignalCluster[]>;
  onProgress?: (ballots: number) => void;
  now: Date;
}

/** Gathers the report's figures: the tally with the operators' exclusions, participation per day, the signals' summary, the methodology. */
export async function reportData(db: Kysely<Database>, input: ReportInput): Promise<ReportData> {
  const { survey } = input;
  const projectId = survey.config.project_id;
  const operatorExclusions = await exclusionList(db, projectId);
  const excludedBallots = new Map(operatorExclusions.map((row) => [row.ballot_id, { reason: row.reason, auditId: row.audit_id }]));
  // The signals first: their columns are let go before the tally reads the ballots, so that the
  // two never hold their memory at once.
  const clusters = await input.findClusters();
  const tally = await tallySurvey(db, {
    survey,
    nominees: input.nominees,
    prepopulation: input.prepopulation,
    excludedBallots,
    pseudonymKey: readPseudonymKey(survey),
    onProgress: input.onProgress,
  });
  const { perDay } = await participation(db, projectId);
  const reasons = tally.reasons ?? EXCLUSION_REASONS;
  const votesExcluded = reasons.reduce((sum, reason) => sum + (tally.totals.excluded[reason] ?? 0), 0);
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    generatedAt: input.now.toISOString(),
    latestAudit: await latestAudit(db, projectId),
    tally,
    results: rankTally(survey.config, tally),
    perDay,
    ballotsExcluded: excludedBallots.size,
    operatorExclusions,
    votesExcluded,
    exclusions: reasons
      .filter((reason) => tally.totals.excluded[reason])
      .map((reason) => ({ reason, votes: tally.totals.excluded[reason]!, text: reasonText(reason, tally.rules ?? DEFAULT_TALLY) })),
    signals: SIGNAL_KINDS.flatMap((kind) => {
      const of = clusters.filter((c) => c.kind === kind);
      if (!of.length) return [];
      return [
        {
          kind,
          text: SIGNAL_TEXT[kind],
          clusters: of.length,
          ballots: distinctBallots(of),
          strongest: Math.max(...of.map((c) => c.score)),
        },
      ];
    }),
    clusters,
    // The very text `results methodology` prints, its title one level down, under the report's Methodology heading.
    methodology: methodologyText(survey.config).replace(/^# /, '## '),
  };
}
