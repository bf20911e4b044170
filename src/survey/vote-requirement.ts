/** The text of the vote-requirement error (SPEC.md §5). */
export function voteRequirementMessage(n: number): string {
  return `You must fill out at least ${n} ${n === 1 ? 'name' : 'names'} to submit this form.`;
}
