// Runs shell commands at the same time and fails when any of them fails: `npm test` type-checks
// (one core, half a minute) beside the lint, the HTML check and the unit tests, which would leave
// the other core mostly idle one after the other without it. The first command's output is shown
// as it comes; each other's is held and shown whole once it ends, so that no two commands' lines
// are mixed.
//
//   node tests/support/side-by-side.mjs 'npm run lint && npm run test:html && vitest run' 'astro check'
import { spawn } from 'node:child_process';

/** Runs one command in a shell; resolves with its exit status and, when `hold`, what it printed. */
function run(command, hold) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (hold) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('error', (error) => resolve({ command, status: 1, output: [Buffer.from(`${error.message}\n`)] }));
    child.on('close', (code, signal) => resolve({ command, status: code ?? (signal ? 1 : 0), output }));
  });
}

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node tests/support/side-by-side.mjs COMMAND [COMMAND…]');
  process.exit(2);
}

const results = await Promise.all(
  commands.map((command, i) =>
    run(command, i > 0).then((result) => {
      if (i > 0) {
        process.stdout.write(`\n> ${command}\n`);
        for (const chunk of result.output) process.stdout.write(chunk);
      }
      return result;
    }),
  ),
);
const failed = results.filter((result) => result.status !== 0);
for (const { command, status } of failed) console.error(`side-by-side: "${command}" failed (exit status ${status})`);
process.exit(failed.length ? 1 : 0);
