import { execFileSync } from 'node:child_process';
import type { AstroIntegration } from 'astro';

/**
 * Compiles the message catalogue (src/i18n/catalogue.ts, through `bin/messages.ts`) as a build,
 * the dev server or the unit tests start; a message missing in a shipped language stops it,
 * naming the message and the language.
 */
export default function messages(): AstroIntegration {
  return {
    name: 'peervote:messages',
    hooks: {
      'astro:config:setup': ({ logger }) => {
        const started = performance.now();
        try {
          const said = execFileSync(process.execPath, ['bin/messages.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
          logger.info(`${said} (${Math.round(performance.now() - started)} ms)`);
        } catch (error) {
          const said = String((error as { stderr?: string }).stderr ?? '').trim();
          throw Object.assign(new Error(said || (error as Error).message), {
            hint: "Add each message named above to its language's file under src/i18n/messages/.",
            stack: '',
          });
        }
      },
    },
  };
}

/**
 * The build's value of `PSEUDO_LOCALE` (src/i18n/pseudo.ts), written into the server's and the
 * commands' bundles in place of the variable (Vite's and esbuild's `define`).
 */
export const PSEUDO_LOCALE_DEFINE = { 'process.env.PSEUDO_LOCALE': JSON.stringify(process.env.PSEUDO_LOCALE ?? '') };
