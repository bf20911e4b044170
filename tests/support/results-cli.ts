import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The Node options `npm run results` starts a command with (its script in package.json): a bench times the commands as an operator runs them. */
export const RESULTS_NODE_OPTIONS: readonly string[] = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.results as string)
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

/** Runs `npm run results -- …args` with `env`; never throws, answers the exit code and both outputs. */
export async function runResults(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/results.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      // An export to standard output of some thousands of ballots: megabytes.
      maxBuffer: 256 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
