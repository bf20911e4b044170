// The signals' detectors as they were when each ballot was an object of its own (SignalBallot),
// kept word for word as the reference the column-by-column detectors are compared against: the
// same ballots must give the same clusters, evidence, scores and order.
import { SIGNAL_KINDS, type NomineeName, type SignalBallot, type SignalCluster, type SignalThresholds } from '../../../src/results/signals/signal-model.ts';
import { licenseSignals, nearIdentical } from './signals-ballots.ts';
import { blocs, reciprocalNominations } from './signals-ties.ts';
import { addressBursts, deviceBursts, fastBallots, nomineeBursts } from './signals-time.ts';

/** Every cluster the reference detectors find among `ballots`, strongest first. */
export function referenceSignals(ballots: readonly SignalBallot[], thresholds: SignalThresholds, name: NomineeName): SignalCluster[] {
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
