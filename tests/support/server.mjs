// Starts the built server (bin/serve.mjs) or another script as a child process on a free
// port (in 4400-4499 unless told otherwise) and waits until it says it is running.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A free port in from…from+count-1 (4400-4499 by default), starting at a random place so that
 * parallel test files rarely collide.
 */
export async function freePort(from = 4400, count = 100) {
  const start = Math.floor(Math.random() * count);
  for (let i = 0; i < count; i++) {
    const port = from + ((start + i) % count);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port in ${from}-${from + count - 1}`);
}

/**
 * Starts a server and resolves once it prints that it is running.
 * @param {{ env?: Record<string, string>, args?: string[], timeoutMs?: number, ports?: { from: number, count: number } }} [options]
 */
export async function startServer({ env = {}, args = ['bin/serve.mjs'], timeoutMs = 20_000, ports = { from: 4400, count: 100 } } = {}) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort(ports.from, ports.count);
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
      child.once('exit', () => {
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
    if (!/EADDRINUSE/.test(output)) throw new Error(`server did not start (${started}):\n${output}`);
  }
  throw new Error('server did not start: no free port after 5 attempts');
}
