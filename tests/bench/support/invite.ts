import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../support/server.mjs';
import { RESULTS_NODE_OPTIONS } from '../../support/results-cli.ts';
import { watch } from './measure.ts';

// Inviting a large roster to a running server, as the people and console benchmarks do: the
// roster written, `npm run results -- invite` run against the server's database while
// `/api/health` is asked one request after the other, on until a new personal link opens.

/** Writes a roster of `count` made-up people (email, name, and one of the demo's four practice settings) into `file`. */
export function writeRoster(file: string, count: number): void {
  const settings = ['Hospital', 'Private practice', 'Academic', 'Community clinic'];
  const lines = ['email,name,practice-setting'];
  for (let n = 0; n < count; n++) lines.push(`person${n}@bench.example,Person ${n} Madeup,${settings[n % settings.length]}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** What an invite run measured. */
export interface Invited {
  /** The whole process, in milliseconds. */
  ms: number;
  /** From its end to a new personal link opening (the API taking the people up). */
  takenUpMs: number;
  /** `/api/health`'s durations during it and two seconds on, and the server's highest memory. */
  health: number[];
  maxRss: number;
  /** The list invite wrote: a header, then one person a line with their personal link last. */
  links: string;
  stderr: string;
}

/** Runs invite to its end against the server at `url` (process `pid`), watched, and waits until a new link opens. */
export async function inviteWatched(options: {
  url: string;
  pid: number | undefined;
  slug: string;
  roster: string;
  out: string;
  env: Record<string, string>;
}): Promise<Invited> {
  const during = watch(`${options.url}/api/health`, options.pid);
  const started = performance.now();
  const finished = new Promise<{ stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...RESULTS_NODE_OPTIONS, 'bin/results.mjs', 'invite', options.slug, '--roster', options.roster, '--out', options.out],
      {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let text = '';
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('exit', (code) => (code === 0 ? resolve({ stderr: text }) : reject(new Error(`invite failed (${code}): ${text.slice(-800)}`))));
  });
  // Whatever happens, the watcher stops before this returns or throws: no request outlives the server.
  const { stderr } = await finished.catch(async (error) => {
    await during.stop();
    throw error;
  });
  const ms = performance.now() - started;
  const links = readFileSync(options.out, 'utf8');
  // Watched on until a new link opens and the API has looked at its files again (at most once a
  // second): the time it takes the new people up is part of the invite.
  const secret = personalSecret(links.split('\n')[1]);
  const ended = performance.now();
  while ((await fetch(`${options.url}/api/survey/link/${options.slug}?secret=${encodeURIComponent(secret)}`)).status !== 200) {
    if (performance.now() - ended > 120_000) throw new Error('a new personal link did not open within two minutes of invite');
  }
  const takenUpMs = performance.now() - ended;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const watched = await during.stop();
  return { ms, takenUpMs, health: watched.durations, maxRss: watched.maxRss, links, stderr };
}

/** The secret of one line of invite's list: the last part of its personal link. */
export function personalSecret(line: string): string {
  return decodeURIComponent(new URL(line.split(',').at(-1) ?? '').pathname.split('/').at(-1) ?? '');
}

/** The roster file's place in a work folder. */
export const rosterIn = (work: string) => path.join(work, 'roster.csv');
