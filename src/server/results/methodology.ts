import type { LoadedSurvey } from '../../survey/loader.ts';
import { EXCLUSION_REASONS, REASON_TEXT, SELF_VOTE_OUTSIDE } from './rules.ts';

/**
 * How this survey's votes are counted, as Markdown for the report: the fixed rules the tally
 * applies today, in the words of the README's rules table. The one place the report takes its
 * methodology from, so that a survey-specific methodology can replace it whole.
 */
export function methodologyMarkdown(survey: LoadedSurvey): string {
  const { config } = survey;
  return [
    '## How the votes were counted',
    `Each voter filled one ballot naming up to ${config.votes_per_category} nominees in each sub-category, picked from the nominee list or written in. Every name on a ballot is one vote; the ranking of a sub-category is by counted votes, ties sharing a rank.`,
    'Write-ins count only once an operator has reconciled them with a nominee on the list, or added them as a new nominee; a write-in no decision covers is not a vote yet.',
    '## Votes that are not counted',
    'The rules apply in this order, and a vote is counted under the first reason that takes it out:',
    ...EXCLUSION_REASONS.map((reason) => `- **${reason.replaceAll('_', ' ')}**: ${REASON_TEXT[reason]}.`),
    `A voter is the same person as an earlier voter when their ballots share a personal link, an email address (any case) or a license number (letters and digits only); the first ballot stands. A self-vote counts only when the ballot also names at least ${SELF_VOTE_OUTSIDE} other nominees in that sub-category whose practice is known and differs from the voter's.`,
    '## Signals and exclusions',
    'Fraud signals flag ballots for an operator to look at; they never exclude a vote themselves. An operator who excludes a ballot gives the reason, which the exclusions list and the audit trail keep with who decided and when.',
  ].join('\n\n');
}
