import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { bundlePath, manifestPath, type BundleManifest } from './manifest.mjs';
import { PSEUDO_LOCALE_DEFINE } from '../messages.ts';

/**
 * What the build bundles for Node to run without the sources' TypeScript: the operator's commands,
 * and what the server reads of the sources as it starts (bin/serve.mjs). Each name's entry, from
 * the project root.
 */
const COMMANDS = { results: 'bin/lib/results-cli.ts', serve: 'bin/lib/serve-settings.ts' } as const;

/**
 * The threads a command starts, bundled beside it (`dist/cli/threads/`) and started from there by
 * the bundle (src/results/thread-module.ts), each in one file: from the sources, each thread of a
 * tally or a send loaded Node's type stripper and its modules one by one again. Each name's
 * threads, from the project root.
 */
const THREADS: Partial<Record<keyof typeof COMMANDS, readonly string[]>> = {
  results: ['src/results/ballots/ballot-reader.worker.ts', 'src/results/tally/identity-register.worker.ts', 'src/results/delivery/transport.worker.ts'],
};

/**
 * Keeps each of the project's own files' `import.meta.url` (and `dirname`) pointing at the file
 * itself, not at the bundle: the worker threads and the published `verify.mjs` are found beside
 * the modules that start or copy them.
 */
function ownAddresses(root: string): Plugin {
  const own = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(src|bin)/.*\\.(ts|mjs)$`);
  return {
    name: 'own-addresses',
    setup(bundler) {
      // Each file is read here once, and handed over whole: the bundler does not read it again.
      bundler.onLoad({ filter: own }, (args) => ({
        contents: readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      }));
    },
  };
}

/**
 * Bundles what COMMANDS names (the operator's command line, `npm run results`, and what the
 * server reads of the sources as it starts) under `dist/cli/`, each with the list of files it was
 * made of: each then starts on a fraction of the processor time, as Node resolves and loads a few
 * modules instead of some six hundred, and no TypeScript. What only some commands need (the mail
 * transport, PostgreSQL's driver) is split into chunks of its own (`dist/cli/chunks/`), loaded by
 * the commands that use it; the threads a command starts are bundled beside it (THREADS). `bin/results.mjs` and `bin/serve.mjs` run a bundle only while every
 * one of its files is unchanged (manifest.mjs), the sources otherwise.
 */
export default function cliBundle(): AstroIntegration {
  let root = '';
  let outDir = '';
  return {
    name: 'peervote:cli-bundle',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': async ({ logger }) => {
        // bin/results.mjs and bin/serve.mjs run the bundles of ./dist alone: a build elsewhere (--outDir) has no use for one.
        if (path.resolve(outDir) !== path.resolve(root, 'dist')) return;
        for (const [name, entry] of Object.entries(COMMANDS)) {
          // The manifest goes first and comes back last, and the bundle is written beside its
          // place and renamed into it, its chunks (named by their content) and threads before its entry: a
          // command that starts meanwhile runs the sources, or a whole bundle, never half of one.
          rmSync(manifestPath(outDir, name), { force: true });
          const bundle = bundlePath(outDir, name);
          const folder = path.dirname(bundle);
          const written = path.join(folder, `.${name}.${process.pid}.part`);
          mkdirSync(written, { recursive: true });
          try {
            const settings = {
              outdir: written,
              outExtension: { '.js': '.mjs' },
              bundle: true,
              platform: 'node',
              format: 'esm',
              target: 'node24',
              metafile: true,
              logLevel: 'warning',
              plugins: [ownAddresses(root)],
              // A test build's commands write mail in its pseudo-locale (src/i18n/pseudo.ts).
              define: { ...PSEUDO_LOCALE_DEFINE, PEERVOTE_BUNDLED_THREADS: JSON.stringify(path.join(folder, 'threads')) },
              // The CommonJS packages bundled in (pg…) require Node's own modules.
              banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
            } satisfies BuildOptions;
            const { metafile } = await build({
              ...settings,
              entryPoints: { [name]: path.join(root, entry) },
              chunkNames: 'chunks/[name]-[hash]',
              splitting: true,
            });
            // Each thread a file of its own, apart from the command's chunks: what it shares with
            // the command would otherwise move into chunks more, which every run would load.
            const threads = THREADS[name as keyof typeof COMMANDS] ?? [];
            const threadInputs = threads.length
              ? (
                  await build({
                    ...settings,
                    entryPoints: Object.fromEntries(threads.map((file) => [`threads/${path.basename(file, '.ts')}`, path.join(root, file)])),
                  })
                ).metafile.inputs
              : {};
            mkdirSync(path.join(folder, 'chunks'), { recursive: true });
            for (const chunk of readdirSync(path.join(written, 'chunks'))) renameSync(path.join(written, 'chunks', chunk), path.join(folder, 'chunks', chunk));
            if (threads.length) {
              mkdirSync(path.join(folder, 'threads'), { recursive: true });
              for (const thread of readdirSync(path.join(written, 'threads')))
                renameSync(path.join(written, 'threads', thread), path.join(folder, 'threads', thread));
            }
            renameSync(path.join(written, `${name}.mjs`), bundle);
            const inputs: Record<string, [number, number]> = {};
            for (const input of Object.keys({ ...metafile.inputs, ...threadInputs })) {
              const file = path.resolve(root, input);
              const { size, mtimeMs } = statSync(file);
              inputs[file] = [size, mtimeMs];
            }
            writeFileSync(manifestPath(outDir, name), JSON.stringify({ inputs } satisfies BundleManifest));
            logger.info(`bundled the ${name} command (${Object.keys(inputs).length} files)`);
          } finally {
            rmSync(written, { recursive: true, force: true });
          }
        }
      },
    },
  };
}
