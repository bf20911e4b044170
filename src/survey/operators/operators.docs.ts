import type { KeyDocs } from '../config/struct-schema.ts';
import { EMAIL } from '../ballots/ballot-rules.ts';
import { EVERY_SURVEY } from './operators.struct.ts';

/**
 * What every key of `surveys/operators.yaml` means, beside its struct (operators.struct.ts): the
 * editors' `operators.schema.json` and its reference are made from the struct and this table, as
 * the survey files' are (config/editor-schemas.ts).
 */
export const OPERATORS_KEYS: KeyDocs = {
  operators: {
    meaning: 'who may use the console at `/console/`: one entry an operator, who signs in with a passkey',
    default: [],
    // The key with no value (`operators:`) is an empty list too.
    schema: (derived) => ({ anyOf: [derived, { type: 'null' }] }),
  },
  'operators[]': { meaning: 'one operator: the address they sign in as, their name, and their role on each survey' },
  'operators[].email': {
    meaning: 'the address the operator signs in as, compared in any case; their enrolment links are mailed there',
    // The struct trims the address before it checks it.
    schema: { pattern: `^\\s*${EMAIL.source.replace(/^\^|\$$/g, '')}\\s*$`, patternErrorMessage: 'expected an email address such as ana@metrohealth.example' },
  },
  'operators[].name': { meaning: 'how the console and the audit trail name them', otherwise: 'their address' },
  'operators[].roles': {
    meaning: `survey slug → role on that survey; \`"${EVERY_SURVEY}"\` gives a role on every survey, present and future, and the higher of the two applies`,
    default: {},
  },
  'operators[].roles.*': {
    meaning: 'the role, each holding the rights of those before it',
    values: {
      auditor: 'sees every console page of the survey and its audit trail; changes nothing',
      reviewer: 'write-ins, signals, refused ballots',
      manager: 'invitations, reminders, bounces',
      owner: "sealing, tally, publication, and other operators' enrolment and sessions",
    },
  },
};
