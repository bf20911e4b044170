import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/** The language switch's inline script, and its hash for the page's Content-Security-Policy. */
export interface InlineScript {
  code: string;
  hash: `sha256-${string}`;
}

let compiled: InlineScript | undefined;

/**
 * The language switch's script as a page writes it inline (a module script: it runs once the page
 * is parsed), compiled once a build from ./language-switch.ts. A page whose own code starts the
 * switch (the ballot, src/ballot/page.ts) writes none: as an inline script of Astro's, it would
 * share that module with the ballot's code, which then becomes a file of its own that both ask
 * for. Compiled at once, not awaited: a page hands its policy to Astro before it renders anything
 * that waits. Build-time only; the project's folder is the working directory, as for the site's icon.
 */
export function languageSwitchScript(): InlineScript {
  if (compiled) return compiled;
  const { outputFiles } = buildSync({
    stdin: {
      contents: "import { followLanguageSwitch } from './language-switch.ts';\nfollowLanguageSwitch();",
      resolveDir: join(process.cwd(), 'src/components'),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = outputFiles[0]!.text.trim();
  compiled = { code, hash: `sha256-${createHash('sha256').update(code).digest('base64')}` };
  return compiled;
}
