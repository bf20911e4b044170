import { EVERY_SURVEY, OPERATOR_ROLES, type Operator, type OperatorRole } from './operators.struct.ts';

/**
 * Every act of the console, with the least role that may do it and whether it asks for the
 * passkey again (a check in the last five minutes). The one table every console endpoint and
 * every page control reads: a control is shown when `may` says yes, and the server refuses
 * the act when it says no.
 */
export const CONSOLE_ACTS = {
  /** See the survey's console pages and its audit trail. */
  'see-survey': { role: 'auditor', sensitive: false },
  /** See a voter's name, address and answers where a page lists ballots (a refused ballot's): below it, a page shows none. */
  'see-voters': { role: 'manager', sensitive: false },
  /** Decide on write-ins, signals and refused ballots. */
  'review-writeins': { role: 'reviewer', sensitive: false },
  'review-signals': { role: 'reviewer', sensitive: false },
  'admit-refused': { role: 'reviewer', sensitive: true },
  /** Mail the roster, and read what came back. */
  'send-invitations': { role: 'manager', sensitive: false },
  'send-reminders': { role: 'manager', sensitive: false },
  'import-bounces': { role: 'manager', sensitive: false },
  /** The results: unseal, count, publish. */
  'unseal-results': { role: 'owner', sensitive: true },
  tally: { role: 'owner', sensitive: false },
  'publish-results': { role: 'owner', sensitive: true },
  /** Another operator's enrolment link and sessions (`mayManage`). */
  'manage-operators': { role: 'owner', sensitive: true },
} as const satisfies Record<string, { role: OperatorRole; sensitive: boolean }>;

/** One act of the console. */
export type ConsoleAct = keyof typeof CONSOLE_ACTS;

/** What an operator's roles allow, as the rights need them. */
type WithRoles = Pick<Operator, 'roles'>;

const rank = (role: OperatorRole | undefined) => (role ? OPERATOR_ROLES.indexOf(role) : -1);

/** The operator's role on a survey: the higher of its own and the one on every survey ("*"); undefined when they have none there. */
export function roleOn(operator: WithRoles, slug: string): OperatorRole | undefined {
  const own = Object.hasOwn(operator.roles, slug) ? operator.roles[slug] : undefined;
  const everywhere = Object.hasOwn(operator.roles, EVERY_SURVEY) ? operator.roles[EVERY_SURVEY] : undefined;
  return rank(own) >= rank(everywhere) ? own : everywhere;
}

/** May this operator do this act on this survey? Yes when their role there is the act's role or above it. */
export function may(operator: WithRoles, act: ConsoleAct, slug: string): boolean {
  return rank(roleOn(operator, slug)) >= rank(CONSOLE_ACTS[act].role);
}

/**
 * May this operator manage another's enrolment and sessions? Only as an owner of every survey
 * the other has a role on ("*" asks for an owner of every survey); an operator with no role
 * yet may be managed by any owner. Never themselves: their own sessions and passkeys are theirs.
 */
export function mayManage(operator: Operator, other: Operator): boolean {
  if (operator.key === other.key) return false;
  const slugs = Object.keys(other.roles);
  if (slugs.length === 0) return Object.values(operator.roles).includes('owner');
  return slugs.every((slug) => may(operator, 'manage-operators', slug));
}
