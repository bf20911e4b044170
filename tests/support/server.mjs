// Starts the built server (bin/serve.mjs) or another script as a child process on a free
// port in 4400-4499 (PEERVOTE_TEST_PORTS, e.g. 4800-4899, moves the range) and waits until
// it says it is running; other servers the tests start (SMTP) listen in the same range.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Lets every Node process a test run starts keep V8's compiled code in one folder
 * (NODE_COMPILE_CACHE): the hundreds of servers and `npm run results` runs of a run then start
 * on about half the CPU. The test configs call it before any process is started.
 */
export function shareCompiledCode() {
  process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'peervote-compile-cache');
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The test servers' port range: PEERVOTE_TEST_PORTS (`first-last`), else 4400-4499. */
function portRange() {
  const match = /^(\d+)-(\d+)$/.exec(process.env.PEERVOTE_TEST_PORTS ?? '');
  return match ? { base: Number(match[1]), span: Number(match[2]) - Number(match[1]) + 1 } : { base: 4400, span: 100 };
}

/** A free port in `base`..`base + span - 1`, starting at a random place so that parallel test files rarely collide. */
async function freePort({ base, span } = portRange()) {
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = base + ((start + i) % span);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + span - 1}`);
}

/**
 * Makes `server` (a net.Server, or anything with its `listen(port, host, callback)` and `'error'`
 * event) listen on 127.0.0.1 at a free port of the test range, trying another when a parallel
 * process took the one found; resolves with the port.
 * @param {{ listen(port: number, host: string, callback: () => void): unknown, once(event: 'error', listener: (error: Error & { code?: string }) => void): unknown, removeListener(event: 'error', listener: (error: Error & { code?: string }) => void): unknown }} server
 */
export async function listenInRange(server, ports = portRange()) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort(ports);
    const listened = await new Promise((resolve, reject) => {
      const onError = (error) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error));
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.removeListener('error', onError);
        resolve(true);
      });
    });
    if (listened) return port;
  }
  throw new Error('no free port after 5 attempts');
}

/**
 * Starts a server and resolves once it prints that it is running; `ports` narrows where
 * (default: PEERVOTE_TEST_PORTS, else 4400-4499).
 * @param {{ env?: Record<string, string>, args?: string[], timeoutMs?: number, ports?: { base: number, span: number } }} [options]
 */
export async function startServer({ env = {}, args = ['bin/serve.mjs'], timeoutMs = 20_000, ports = portRange() } = {}) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort(ports);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const started = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), timeoutMs);
      const onData = (chunk) => {
        output += chunk;
        if (output.includes('is running at')) {
          clearTimeout(timer);
          resolve('ok');
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk) => (output += chunk));
      // 'close', not 'exit': a child's last output (its EADDRINUSE, say) may come after it has exited.
      child.once('close', () => {
        clearTimeout(timer);
        resolve('exited');
      });
    });
    if (started === 'ok') {
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      return {
        port,
        url: `http://127.0.0.1:${port}`,
        child,
        exited,
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
        },
      };
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    const how = child.signalCode ?? (child.exitCode === null ? '' : `code ${child.exitCode}`);
    if (!/EADDRINUSE/.test(output)) throw new Error(`server did not start (${started}${how ? `, ${how}` : ''}):\n${output}`);
  }
  throw new Error('server did not start: no free port after 5 attempts');
}
