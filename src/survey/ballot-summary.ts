import { isBallotFile, type BallotInput, type BallotValue } from './ballot-input.ts';

/** A ballot fit for an error report: texts as they are, files by name, size and type only, never their bytes. */
export function ballotSummary(input: BallotInput): Record<string, unknown> {
  const describe = (value: BallotValue): unknown =>
    Array.isArray(value) ? value.map(describe) : isBallotFile(value) ? { file: value.name, size: value.size, type: value.type } : value;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, describe(value)]));
}
