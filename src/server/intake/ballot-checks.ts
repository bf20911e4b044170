import type { Struct } from 'superstruct';
import { ballotStruct } from '../../survey/ballot.struct.ts';
import type { BallotInput } from '../../survey/ballot-input.ts';
import type { FieldDef } from '../../survey/field.struct.ts';
import { allFields } from '../../survey/layout.ts';
import type { ServerSurvey } from '../surveys.ts';

const structs = new WeakMap<ServerSurvey, Struct<BallotInput, null>>();

/**
 * The ballot struct the server checks a survey's ballots with, built once per survey. Tiles the
 * configuration marks taken are refused outright; tiles taken by other ballots are settled in
 * the database, where a ballot that loses the race is kept with its reservation marked lost.
 * A nominee id the list does not hold does not refuse the ballot: the voter's page may know a
 * newer or older list than this process, so the ballot is stored and the tally excludes that
 * one vote as `not_on_list`.
 */
export function serverBallotStruct(survey: ServerSurvey): Struct<BallotInput, null> {
  let struct = structs.get(survey);
  if (!struct) {
    struct = ballotStruct(survey.config);
    structs.set(survey, struct);
  }
  return struct;
}

/** The survey's file fields by name. */
export function fileFields(survey: ServerSurvey): Map<string, FieldDef> {
  return new Map(
    allFields(survey.config.layout)
      .filter((field) => field.type === 'file')
      .map((field) => [field.name, field]),
  );
}
