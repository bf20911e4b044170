// `results publish`: the folder surveys/<slug>/results/ that the publication commits and the
// site serves: results.json, ledger.jsonl, methodology.md and verify.mjs.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import type { LedgerStatus, PublishedResults } from '../../survey/published/published-results.ts';
import { latestAudit } from '../../server/db/audit.repository.ts';
import { tallySurvey, votePoints, type Tally } from '../tally/tally.ts';
import { rankTally } from '../tally/tally-report.ts';
import { tallyDigest } from '../tally/tally-digest.ts';
import { methodologyText } from '../tally/methodology.ts';
import { DEFAULT_TALLY } from '../tally/rules.ts';
import { ballotExclusions } from '../tally/tally.repository.ts';
import { readPseudonymKey } from '../voters/pseudonym-key.ts';
import type { StoredBallot } from '../ballots/ballot-reader.ts';
import { LedgerChain, ledgerVotes, receiptHash } from './ledger.ts';
import { receiptCodes } from './publish.repository.ts';

/** The stand-alone checker, copied as it is into every published folder. */
const VERIFY_SCRIPT = new URL('./verify.mjs', import.meta.url);

/** The folder a survey's results are published in: `results/` in its survey folder. */
export const publishedFolder = (survey: LoadedSurvey): string => path.join(survey.dir, 'results');

/** What publishing needs besides the database. */
export interface PublishInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  /** The folder to write (default: publishedFolder). */
  folder?: string;
  /** The published time (default: now). */
  at?: Date;
  onProgress?: (ballots: number) => void;
  /** Called with the count the ledger was written from, before results.json is: the console stores it as its last count. */
  onTally?: (tally: Tally) => void;
}

/** A ballot's standing as the ballot reader gives it. */
const statusOf = (ballot: StoredBallot): LedgerStatus => ballot.status;

/** The salt of an earlier publication in `folder`, kept so that republishing keeps every voter's line where it was. */
function earlierSalt(folder: string): string | undefined {
  try {
    const earlier = JSON.parse(readFileSync(path.join(folder, 'results.json'), 'utf8')) as Partial<PublishedResults>;
    return typeof earlier.receipt_salt === 'string' && /^[0-9a-f]{64}$/.test(earlier.receipt_salt) ? earlier.receipt_salt : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A first publication's receipt salt: the SHA-256 of the survey's id and every receipt code in
 * the order received. Nobody without the codes could have guessed it before publication, yet
 * the same ballots give the same salt on SQLite and PostgreSQL alike.
 */
async function drawSalt(db: Kysely<Database>, projectId: string): Promise<string> {
  const hash = createHash('sha256').update(`peervote receipt salt\n${projectId}\n`);
  for await (const page of receiptCodes(db, projectId)) for (const code of page) hash.update(`${code ?? ''}\n`);
  return hash.digest('hex');
}

/**
 * Counts the survey as `tally` does and writes its published folder: the ledger a line per
 * ballot as the tally reads them (memory holds a page, not the ledger), then results.json with
 * the ledger's head, the methodology and the checker. The folder is written beside and renamed
 * into place, so a reader never sees half a publication. Returns what results.json says.
 */
export async function publishResults(db: Kysely<Database>, input: PublishInput): Promise<PublishedResults> {
  const { survey } = input;
  const projectId = survey.config.project_id;
  const folder = input.folder ?? publishedFolder(survey);
  const rules = survey.config.tally ?? DEFAULT_TALLY;
  const salt = earlierSalt(folder) ?? (await drawSalt(db, projectId));
  const staging = `${folder}.publishing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const entry = await latestAudit(db, projectId);
    const ledger = createWriteStream(path.join(staging, 'ledger.jsonl'));
    const chain = new LedgerChain();
    const ballots = { received: 0, counted: 0, replaced: 0 };
    const votes = { counted: 0, not_counted: 0 };
    const tally = await tallySurvey(db, {
      survey,
      nominees: input.nominees,
      prepopulation: input.prepopulation,
      pseudonymKey: readPseudonymKey(survey),
      excludedBallots: await ballotExclusions(db, projectId),
      onProgress: input.onProgress,
      onBallot: async (ballot, verdicts) => {
        const status = statusOf(ballot);
        const lineVotes = ledgerVotes(verdicts, ({ vote }) => votePoints(rules, vote), status);
        ballots.received++;
        if (status === 'replaced') ballots.replaced++;
        else {
          const counted = lineVotes.filter((vote) => vote.counted).length;
          if (counted) ballots.counted++;
          votes.counted += counted;
          votes.not_counted += lineVotes.length - counted;
        }
        const text = chain.next({ receipt: ballot.receipt ? receiptHash(salt, ballot.receipt) : null, status, votes: lineVotes });
        if (!ledger.write(`${text}\n`)) await once(ledger, 'drain');
      },
    });
    ledger.end();
    await once(ledger, 'finish');
    input.onTally?.(tally);
    const digest = tallyDigest(survey.config, input.nominees);
    const results: PublishedResults = {
      survey: survey.slug,
      title: survey.config.survey_title ?? survey.slug,
      published_at: (input.at ?? new Date()).toISOString(),
      config_digest: digest.config,
      audit_entry: entry?.id ?? 'none',
      audit_head: entry?.hash ?? 'none',
      receipt_salt: salt,
      head: chain.head,
      ballots,
      votes,
      exclusions: Object.fromEntries(Object.entries(tally.totals.excluded).filter(([, n]) => n !== undefined)) as Record<string, number>,
      methodology: rules,
      subcategories: rankTally(survey.config, tally).map((sub) => ({
        category: sub.group,
        subcategory: sub.subcategory,
        nominees: sub.rows.map((row) => ({
          nominee_id: row.nomineeId,
          name: row.nomineeName,
          rank: row.rank ?? null,
          counted: row.counted,
          points: row.points,
          winner: row.winner,
        })),
      })),
    };
    writeFileSync(path.join(staging, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(path.join(staging, 'methodology.md'), methodologyText(survey.config));
    writeFileSync(path.join(staging, 'verify.mjs'), readFileSync(VERIFY_SCRIPT));
    if (existsSync(folder)) rmSync(folder, { recursive: true });
    renameSync(staging, folder);
    return results;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
