import { createHash } from 'node:crypto';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { categoryGroups } from '../../survey/config/layout.ts';
import { DEFAULT_TALLY } from './rules.ts';

/** JSON with every object's keys sorted, so that the same value always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What a tally depends on besides the ballots and the operators' decisions, and its digest. */
export interface TallyDigest {
  /** sha256 of the canonical resolved methodology, the survey's categories and voter fields, and the nominee list's digest. */
  config: string;
  /** The first twelve hex digits of `config`, for a summary line. */
  short: string;
  /** sha256 of the nominee list as the tally reads it: every nominee's columns, by id. */
  nominees: string;
}

/**
 * The digest of the configuration a tally applies: the same survey.yaml rules and nominee list
 * give the same digest on any machine and database, and any change to them changes it.
 */
export function tallyDigest(config: SurveyConfig, nominees: readonly Nominee[]): TallyDigest {
  const sorted = [...nominees].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const nomineeDigest = sha256(sorted.map((nominee) => canonicalJson(nominee)).join('\n'));
  const digest = sha256(
    canonicalJson({
      project_id: config.project_id,
      categories: categoryGroups(config),
      votes_per_category: config.votes_per_category,
      voter_fields: { workplace_field: config.workplace_field, license_field: config.license_field, name_fields: config.name_fields },
      tally: config.tally ?? DEFAULT_TALLY,
      nominees: nomineeDigest,
    }),
  );
  return { config: digest, short: digest.slice(0, 12), nominees: nomineeDigest };
}
