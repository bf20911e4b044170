/** The code of the problem "too few names": the page tells it with its own notice, not at a field (docs/spec.md, "Submitting"). */
export const VOTE_REQUIREMENT = 'vote-requirement';

/** The text of the vote-requirement error (docs/spec.md, "Submitting"). */
export function voteRequirementMessage(n: number): string {
  return `You must fill out at least ${n} ${n === 1 ? 'name' : 'names'} to submit this form.`;
}

/** True when a problem is the vote requirement's, by its code. */
export function isVoteRequirement(problem: { code?: string }): boolean {
  return problem.code === VOTE_REQUIREMENT;
}
