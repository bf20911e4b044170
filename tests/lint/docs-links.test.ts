import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every link of the README and the guides under docs/ leads somewhere: a file or an image that
// exists, and a heading (`#anchor`) that the target file has, with the anchors GitHub makes.
// Links to the web (http, https) and mail addresses are not followed.

const root = path.resolve(import.meta.dirname, '../..');

/** The Markdown files whose links are checked, from the project root. */
const GUIDES = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name)),
];

/** A link as written: its line, its target, and whether it is an image. */
interface Link {
  line: number;
  target: string;
  image: boolean;
}

/** A line outside fenced code blocks and HTML comments: its number, its text, and its text with inline code blanked. */
interface ProseLine {
  line: number;
  text: string;
  prose: string;
}

/** The lines of a Markdown text outside fenced code blocks and HTML comments. */
function proseLines(text: string): ProseLine[] {
  const lines: ProseLine[] = [];
  let fence: string | undefined;
  let comment = false;
  text.split('\n').forEach((raw, index) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length && raw.trim() === opening[1]) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening[1];
      return;
    }
    let prose = raw;
    if (comment) {
      const end = prose.indexOf('-->');
      if (end < 0) return;
      prose = prose.slice(end + 3);
      comment = false;
    }
    prose = prose.replace(/<!--.*?-->/g, '');
    const open = prose.indexOf('<!--');
    if (open >= 0) {
      prose = prose.slice(0, open);
      comment = true;
    }
    lines.push({ line: index + 1, text: prose, prose: prose.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => ' '.repeat(span.length)) });
  });
  return lines;
}

/** Every inline link, image and reference definition of a Markdown text. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  for (const { line, prose } of proseLines(text)) {
    for (const match of prose.matchAll(/(!?)\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: match[2].replace(/^<|>$/g, ''), image: match[1] === '!' });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition) links.push({ line, target: definition[1].replace(/^<|>$/g, ''), image: false });
  }
  return links;
}

/** A heading's anchor as GitHub makes it: its text in lower case, punctuation but hyphens dropped, spaces made hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, a repeated one numbered -1, -2… as GitHub does. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line.text);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with a link of the file `from` (a path from the project root), or undefined when it leads somewhere. */
function brokenLink(from: string, link: Link, read: (file: string) => string | undefined): string | undefined {
  if (/^(https?|mailto):/i.test(link.target)) return undefined;
  const hash = link.target.indexOf('#');
  const file = decodeURIComponent(hash < 0 ? link.target : link.target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(link.target.slice(hash + 1));
  const target = file === '' ? from : path.normalize(path.join(path.dirname(from), file));
  const where = `${from}:${link.line}: ${link.image ? 'image' : 'link'} ${link.target}`;
  if (target.startsWith('..') || path.isAbsolute(file)) return `${where}: leads outside the project`;
  const text = read(target);
  if (text === undefined) return `${where}: ${target} does not exist`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith('.md')) return `${where}: ${target} is not Markdown, so it has no heading #${anchor}`;
  if (!anchorsOf(text).has(anchor)) return `${where}: ${target} has no heading #${anchor}`;
  return undefined;
}

/** Reads a file of the project: its text, an empty text for a folder or a file that is no text, or undefined when nothing is there. */
function readProjectFile(file: string): string | undefined {
  const full = path.join(root, file);
  if (!existsSync(full)) return undefined;
  return file.endsWith('.md') ? readFileSync(full, 'utf8') : '';
}

describe('links of the README and the guides', () => {
  it.each(GUIDES)('%s links only to files, images and headings that exist', (guide) => {
    const text = readFileSync(path.join(root, guide), 'utf8');
    const broken = linksOf(text)
      .map((link) => brokenLink(guide, link, readProjectFile))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it('checks a guide that has links at all', () => {
    expect(linksOf(readFileSync(path.join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(5);
  });
});

describe('what the check reads', () => {
  const files: Record<string, string> = {
    'docs/a.md': '# Title\n\n## The methodology, in survey.yaml\n\n## 11. Sending\n\n### `src/`\n\n## Notes\n\n## Notes\n\n```sh\n# not a heading\n```\n',
    'docs/images/shot.png': '',
    'README.md': '# Peervote\n\n## The two commands\n',
  };
  const read = (file: string) => files[file];
  const check = (target: string, image = false) => brokenLink('docs/b.md', { line: 3, target, image }, read);

  it.each([
    ['a.md'],
    ['a.md#the-methodology-in-surveyyaml'],
    ['a.md#11-sending'],
    ['a.md#src'],
    ['a.md#notes'],
    ['a.md#notes-1'],
    ['../README.md#the-two-commands'],
    ['https://example.org/missing#nothing'],
    ['mailto:someone@example.org'],
  ])('takes %s', (target) => {
    expect(check(target)).toBeUndefined();
  });

  it.each([
    ['missing.md', 'docs/b.md:3: link missing.md: docs/missing.md does not exist'],
    ['a.md#nothing-here', 'docs/b.md:3: link a.md#nothing-here: docs/a.md has no heading #nothing-here'],
    ['a.md#notes-2', 'docs/b.md:3: link a.md#notes-2: docs/a.md has no heading #notes-2'],
    ['a.md#not-a-heading', 'docs/b.md:3: link a.md#not-a-heading: docs/a.md has no heading #not-a-heading'],
    ['../README.md#running-the-vote', 'docs/b.md:3: link ../README.md#running-the-vote: README.md has no heading #running-the-vote'],
    ['../../outside.md', 'docs/b.md:3: link ../../outside.md: leads outside the project'],
  ])('refuses %s', (target, problem) => {
    expect(check(target)).toBe(problem);
  });

  it('refuses an image that does not exist, and takes one that does', () => {
    expect(check('images/none.png', true)).toBe('docs/b.md:3: image images/none.png: docs/images/none.png does not exist');
    expect(check('images/shot.png', true)).toBeUndefined();
  });

  it('finds links and images in prose, not in code or comments', () => {
    const text = [
      'See [the guide](a.md#notes "Notes") and ![a shot](images/shot.png).',
      '`[not a link](nowhere.md)` <!-- [nor this](nowhere.md) -->',
      '```markdown',
      '[Open your ballot]({{url}})',
      '```',
      '[ref]: <other.md>',
    ].join('\n');
    expect(linksOf(text)).toEqual([
      { line: 1, target: 'a.md#notes', image: false },
      { line: 1, target: 'images/shot.png', image: true },
      { line: 6, target: 'other.md', image: false },
    ]);
  });
});
