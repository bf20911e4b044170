// What a first visit to a built page downloads: the module scripts, island components and
// renderers the HTML names, and every module they import statically (not `import()`,
// which loads later), plus the stylesheets. Sizes raw, gzipped (zlib's default level, as
// most servers and CDNs send them) and in Brotli (the `.br` copies `npm start` serves).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * @param {string} clientDir the built site (dist/client)
 * @param {string} htmlFile a page's HTML file inside it
 */
export function weighPage(clientDir, htmlFile) {
  const html = readFileSync(htmlFile, 'utf8');
  const entries = new Set();
  for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) entries.add(match[1]);
  for (const match of html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)) entries.add(match[1]);
  const inlineModules = [...html.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).filter(Boolean);
  const js = new Set();
  const visit = (url) => {
    const file = path.join(clientDir, url);
    if (js.has(file) || !existsSync(file)) return;
    js.add(file);
    for (const dep of staticImports(readFileSync(file, 'utf8'))) visit(path.posix.join(path.posix.dirname(url), dep));
  };
  for (const url of entries) visit(url);
  for (const code of inlineModules) for (const dep of staticImports(code)) visit(dep.startsWith('/') ? dep : `/${dep}`);
  const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => path.join(clientDir, m[1])).filter(existsSync);
  const inline = [...html.matchAll(/<script(?![^>]*src=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('');
  const sum = (files) =>
    files.reduce(
      (total, file) => {
        const bytes = readFileSync(file);
        // A file too small to be worth compressing has no `.br` copy and goes out as it is.
        const brotli = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : bytes.length;
        return { raw: total.raw + bytes.length, gzip: total.gzip + gzipSync(bytes).length, brotli: total.brotli + brotli };
      },
      { raw: 0, gzip: 0, brotli: 0 },
    );
  return {
    js: sum([...js]),
    jsFiles: [...js].map((file) => path.relative(clientDir, file)),
    css: sum(css),
    inlineScript: { raw: Buffer.byteLength(inline), gzip: gzipSync(inline).length },
    html: { raw: Buffer.byteLength(html), gzip: gzipSync(html).length },
  };
}

/** The module specifiers a module imports statically: `import … from "x"` and `import "x"`, not `import("x")`. */
function staticImports(code) {
  const found = [];
  for (const match of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+)["']/g)) found.push(match[1]);
  for (const match of code.matchAll(/(?:^|[;\s}])export\s*(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g)) found.push(match[1]);
  return found;
}
