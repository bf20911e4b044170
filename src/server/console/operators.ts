import { operatorsFile, operatorsFileCandidates, readOperators } from '../../survey/operators/operators-file.ts';
import { operatorKey, type Operator } from '../../survey/operators/operators.struct.ts';
import { fileStamp } from '../file-stamp.ts';
import { allServerSurveys } from '../surveys.ts';

/**
 * The console's operators as the file gives them now: every operator by their key; or, for a
 * file that cannot be used, why, and nobody at all. A broken file never leaves the last good
 * list in service: an operator removed in the same edit must not keep their access.
 */
export type OperatorsState =
  | { readonly usable: true; readonly file: string; readonly byKey: ReadonlyMap<string, Operator>; readonly slugs: readonly string[] }
  | { readonly usable: false; readonly file: string; readonly why: string };

let current: { stamp: string; state: OperatorsState } | undefined;
let checkedAt = 0;

/** The survey slugs the API serves, in order: a role may name only these. */
function servedSlugs(): string[] {
  return allServerSurveys()
    .map((survey) => survey.slug)
    .sort();
}

/**
 * The operators, read again when the operators file (or the set of surveys it may name) has
 * changed: looked at once a second at most, so that a role lowered or an operator removed
 * counts from their next request, on every instance, with no restart. A file that fails its
 * checks shuts the console to everyone, and the log says why, once per version of the file.
 */
export function consoleOperators(now = Date.now()): OperatorsState {
  // A clock set back (by NTP, or a test) looks again rather than waiting for the old time to come round.
  if (current && now >= checkedAt && now - checkedAt < 1000) return current.state;
  checkedAt = now;
  const slugs = servedSlugs();
  const stamp = [...operatorsFileCandidates().map((file) => `${file}:${fileStamp(file)}`), ...slugs].join('\n');
  if (current?.stamp === stamp) return current.state;
  const file = operatorsFile();
  let state: OperatorsState;
  try {
    const operators = readOperators(file, slugs);
    state = { usable: true, file, byKey: new Map(operators.map((operator) => [operator.key, operator])), slugs };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    console.error(`The console refuses every operator until ${file} is mended: ${why}`);
    state = { usable: false, file, why };
  }
  current = { stamp, state };
  return state;
}

/** The operator with this address now (any case), or undefined: not in the file, or the file is unusable. */
export function findOperator(email: string): Operator | undefined {
  const state = consoleOperators();
  return state.usable ? state.byKey.get(operatorKey(email)) : undefined;
}
