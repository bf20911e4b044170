import { array, defaulted, enums, nullable, object, optional, record, refine, string, trimmed, type Infer } from 'superstruct';
import { EMAIL } from '../ballots/ballot-rules.ts';

// surveys/operators.yaml (or PEERVOTE_PRIVATE_DIR/operators.yaml): who may use the console, and
// with which role on which survey. A role changes by a reviewed commit; the API follows the file.

/** The console's roles, least first: each holds the rights of those before it. */
export const OPERATOR_ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;

/** One of the console's roles. */
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The key of `roles` that gives a role on every survey, present and future. */
export const EVERY_SURVEY = '*';

const OperatorEmail = refine(trimmed(string()), 'email', (value) =>
  EMAIL.test(value) ? true : `expected an email address such as ana@metrohealth.example, got ${JSON.stringify(value)}`,
);

/** One operator: the address they sign in as (compared in any case), how the console names them, and their role per survey slug or "*". */
const OperatorEntry = object({
  email: OperatorEmail,
  name: optional(trimmed(string())),
  roles: defaulted(record(string(), enums(OPERATOR_ROLES)), {}),
});

/** The whole file: a list of operators, which may be empty (`operators: []`, or the key with no value). */
export const OperatorsFile = object({
  operators: defaulted(nullable(array(OperatorEntry)), []),
});

/** The whole file after validation. */
export type OperatorsFileContent = Infer<typeof OperatorsFile>;

/** An operator as the console holds them: the address in lower case as their key, the address as written, their name and roles. */
export interface Operator {
  readonly key: string;
  readonly email: string;
  readonly name: string;
  readonly roles: Readonly<Record<string, OperatorRole>>;
}

/** The key an address is known by: compared in any case, so Ana@Example.org is ana@example.org. */
export function operatorKey(email: string): string {
  return email.trim().toLowerCase();
}
