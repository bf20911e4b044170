import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import type { TallyConfig } from '../../survey/config/tally.struct.ts';
import { DEFAULT_TALLY } from './rules.ts';
import { plural } from '../../survey/ballots/field-messages.ts';

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
const list = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`);

/** The points sentence: one point a vote, or what each slot and a write-in earn. */
function pointsSentence(rules: TallyConfig, slots: number): string {
  const points = Array.from({ length: slots }, (_, i) => rules.points[Math.min(i, rules.points.length - 1)]);
  if (points.every((p) => p === 1)) return 'Every counted vote is worth one point, whichever slot it fills.';
  const each = points.map((p, i) => `${plural(p, 'point')} for a ${ORDINALS[i]} choice`);
  return `A counted vote is worth ${list(each).replace(/ or ([^,]*)$/, ' and $1')}; a write-in matched to a nominee is worth ${plural(rules.points[rules.points.length - 1], 'point')}.`;
}

function duplicateSentence(rules: TallyConfig): string {
  if (!rules.duplicates.length) return 'Ballots are not screened for duplicates: every ballot received counts.';
  const names = {
    secret: 'the same personal link',
    email: 'the same email address (in any case)',
    license: 'the same license number (letters and digits compared)',
  };
  return `When one person sends more than one ballot, recognised by ${list(rules.duplicates.map((key) => names[key]))}, only the first ballot received counts.`;
}

function selfVoteSentence(rules: TallyConfig): string {
  if (rules.self_vote.rule === 'exclude') return 'A vote for oneself is never counted.';
  return `A vote for oneself counts only when the same ballot names at least ${plural(rules.self_vote.outside_votes, 'other nominee')} in that sub-category whose practice is known and differs from the voter's.`;
}

function samePracticeSentence(rules: TallyConfig): string {
  if (rules.same_practice === 'exclude') return "A vote for a colleague of the voter's own practice is not counted.";
  if (rules.same_practice === 'outside_match')
    return "A vote for a colleague of the voter's own practice counts only when the same ballot names at least one nominee outside that practice in the sub-category.";
  return "A vote for a colleague of the voter's own practice counts like any other.";
}

function matchSentence(mode: 'off' | 'flag' | 'exclude', what: string): string | undefined {
  if (mode === 'off') return undefined;
  return mode === 'exclude' ? `A vote for a nominee ${what} is not counted.` : `A vote for a nominee ${what} is counted and marked for the editors to review.`;
}

function publishSentences(rules: TallyConfig): string[] {
  const lines = ['Within each sub-category nominees are ranked by points; nominees with the same points share a place, listed by name.'];
  const { top, ties } = rules.publish;
  if (top !== undefined) {
    lines.push(
      ties === 'include'
        ? `The top ${top} of each sub-category are published; when nominees tie for the last place, all of them are published.`
        : `The top ${top} of each sub-category are published; when nominees tie for the last place, none of them is published.`,
    );
  } else lines.push('The number published per sub-category is decided by the editors from the ranking.');
  if (rules.min_votes > 0) lines.push(`A nominee needs at least ${plural(rules.min_votes, 'counted vote')} to be published.`);
  if (rules.min_share > 0)
    lines.push(`A nominee must be named on at least ${rules.min_share}% of the counted ballots that vote in the sub-category to be published.`);
  return lines;
}

/**
 * The methodology a survey's tally applies, in plain words for the publication to print, as
 * Markdown: one sentence per rule, generated from the resolved `tally:` block, so that the text
 * and the count can never disagree.
 */
export function methodologyText(
  config: Pick<SurveyConfig, 'survey_title' | 'project_id' | 'votes_per_category' | 'workplace_field'> & { tally?: TallyConfig },
): string {
  const rules = config.tally ?? DEFAULT_TALLY;
  const title = config.survey_title ?? config.project_id;
  const sentences = [
    `Each voter may name up to ${plural(config.votes_per_category, 'nominee')} in each sub-category.`,
    pointsSentence(rules, config.votes_per_category),
    'Nominees written in by voters count once the editors have matched them to a nominee on the list or added them as new nominees.',
    'Ballots sent from the demonstration link are not counted.',
    'A ballot an operator took out of the count after a review is not counted; the audit trail keeps who decided, when and why.',
    duplicateSentence(rules),
    'A nominee who is not on the nominee list is not counted, and a nominee named twice in one sub-category on one ballot counts once.',
    matchSentence(
      rules.subcategory_match.rule,
      `whose ${rules.subcategory_match.nominee_field} on the nominee list is not the sub-category they were named in`,
    ),
    matchSentence(rules.region_match.rule, `whose ${rules.region_match.nominee_field} on the nominee list is not the region the voter gave`),
    selfVoteSentence(rules),
    samePracticeSentence(rules),
    ...publishSentences(rules),
  ].filter((line): line is string => Boolean(line));
  return `# How the votes of ${title} are counted\n\n${sentences.map((line) => `- ${line}`).join('\n')}\n`;
}
