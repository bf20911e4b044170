import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { AstroIntegration } from 'astro';

/** The kinds of file worth compressing. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every compressible built file of
 * 1 KB or more, at the highest levels, once per build; `bin/serve.mjs` sends them to
 * browsers that accept them, so no request pays for compression.
 */
export default function precompress(): AstroIntegration {
  return {
    name: 'peervote:precompress',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        let count = 0;
        for (const name of readdirSync(root, { recursive: true }).map(String)) {
          const file = path.join(root, name);
          if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
          const bytes = readFileSync(file);
          writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
          count++;
        }
        logger.info(`compressed ${count} files (.br and .gz)`);
      },
    },
  };
}
