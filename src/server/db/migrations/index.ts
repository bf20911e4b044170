import type { Migration } from 'kysely';
import * as initial from './20261121130000-initial.ts';
import * as operatorDecisions from './20261201090000-operator-decisions.ts';
import * as auditLog from './20261205000000-audit-log.ts';
import * as refusedBallots from './20261210090000-refused-ballots.ts';
import * as voteTracking from './20261220000000-vote-tracking.ts';
import * as fraudSignals from './20261230500000-fraud-signals.ts';
import * as replaceableBallots from './20270110090000-replaceable-ballots.ts';
import * as verifiedVoters from './20270110100000-verified-voters.ts';
import * as mailDelivery from './20270111000000-mail-delivery.ts';
import * as sendRuns from './20270112000000-send-runs.ts';
import * as childRowIndexes from './20270113000000-child-row-indexes.ts';
import * as receiptDue from './20270114000000-receipt-due.ts';
import * as auditChain from './20270115000000-audit-chain.ts';
import * as consoleTables from './20270120000000-console.ts';
import * as people from './20270121000000-people.ts';
import * as participationCounters from './20270122000000-participation-counters.ts';
import * as signalRuns from './20270122100000-signal-runs.ts';
import * as refusedBallotsPages from './20270123100000-refused-ballots-pages.ts';
import * as writeInQueue from './20270126000000-write-in-queue.ts';
import * as signalRunClusters from './20270127000000-signal-run-clusters.ts';
import * as consoleSendRuns from './20270128000000-console-send-runs.ts';
import * as resultsConsole from './20270129000000-results-console.ts';

/**
 * Every migration, by name, in the order they run. Listed here rather than read from the
 * folder, because the bundled server has no folder to read. Add new ones at the end with a
 * later timestamp.
 */
export const migrations: Record<string, Migration> = {
  '20261121130000-initial': initial,
  '20261201090000-operator-decisions': operatorDecisions,
  '20261205000000-audit-log': auditLog,
  '20261210090000-refused-ballots': refusedBallots,
  '20261220000000-vote-tracking': voteTracking,
  '20261230500000-fraud-signals': fraudSignals,
  '20270110090000-replaceable-ballots': replaceableBallots,
  '20270110100000-verified-voters': verifiedVoters,
  '20270111000000-mail-delivery': mailDelivery,
  '20270112000000-send-runs': sendRuns,
  '20270113000000-child-row-indexes': childRowIndexes,
  '20270114000000-receipt-due': receiptDue,
  '20270115000000-audit-chain': auditChain,
  '20270120000000-console': consoleTables,
  '20270121000000-people': people,
  '20270122000000-participation-counters': participationCounters,
  '20270122100000-signal-runs': signalRuns,
  '20270123100000-refused-ballots-pages': refusedBallotsPages,
  '20270126000000-write-in-queue': writeInQueue,
  '20270127000000-signal-run-clusters': signalRunClusters,
  '20270128000000-console-send-runs': consoleSendRuns,
  '20270129000000-results-console': resultsConsole,
};
