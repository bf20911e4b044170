import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import vnuJar from 'vnu-jar';

// The Nu HTML checker (vnu-jar, on the Java tests/support/preflight.mjs installs) over some HTML
// files, errors only, in one Java process: each error as `file:line:column message`.

/** What the checker says of `files`: its errors, and its version. Throws when it did not run. */
export async function nuHtmlErrors(files: readonly string[]): Promise<{ errors: string[]; version: string }> {
  // The checker exits 1 when it finds errors; its JSON report is on stderr either way.
  const run = await promisify(execFile)('java', ['-jar', String(vnuJar), '--errors-only', '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stderr?: string; message?: string }) => error,
  );
  let report: { version?: string; messages: Array<{ type: string; url?: string; lastLine?: number; firstColumn?: number; message: string; extract?: string }> };
  try {
    report = JSON.parse(run.stderr ?? '');
  } catch {
    throw new Error(`the Nu HTML checker did not run (${(run as { message?: string }).message ?? 'no report'}).`);
  }
  const errors = report.messages
    .filter((message) => message.type === 'error' || message.type === 'non-document-error')
    .map((error) => {
      const file = error.url ? path.relative('.', new URL(error.url).pathname) : '(checker)';
      return `${file}:${error.lastLine ?? 0}:${error.firstColumn ?? 0} ${error.message}${error.extract ? `\n    ${error.extract.replaceAll('\n', ' ')}` : ''}`;
    });
  return { errors, version: report.version ?? '' };
}
