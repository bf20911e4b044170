import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { formatPath, type FileProblem, type KeyedProblem } from '../errors.ts';

/** A YAML file as read: its value, every problem of its syntax, and where each key path is in it. */
export interface YamlFile {
  /** The value, or undefined when a syntax error leaves it unknown. */
  value: unknown;
  /** Every syntax error the parser reports, and every repeated key, each at its place. */
  problems: FileProblem[];
  /** Places problems found in the value at the line and column of their key path. */
  place(problems: readonly KeyedProblem[]): FileProblem[];
}

/** A secret shown in a problem: its first three characters, never more (the whole secret is a credential). */
function hiddenSecret(secret: string): string {
  return `${secret.slice(0, 3)}…`;
}

/**
 * The problem shown with the key at `depth` of its path hidden as a secret (`prepopulation.k7Q….email`):
 * for the maps whose keys are personal secrets.
 */
export function hideSecretKey<T extends KeyedProblem>(problem: T, depth: number): T {
  if (problem.keys.length <= depth) return problem;
  const head = formatPath(problem.keys.slice(0, depth));
  // formatPath writes a first key as it is; a placeholder first makes it write the rest as it would after a key.
  const tail = formatPath(['_', ...problem.keys.slice(depth + 1)]).slice(1);
  return { ...problem, path: `${head}${head ? '.' : ''}${hiddenSecret(String(problem.keys[depth]))}${tail}` };
}

/** What a scalar key compares as, with a key path's strings. */
function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : JSON.stringify(key);
}

/**
 * The node a key path leads to in the document: the value at the path, the key itself when
 * `atKey`; where a key is missing, the map that should hold it. As the value read does, a
 * repeated key means its last occurrence.
 */
function nodeAt(document: Document, keys: ReadonlyArray<string | number>, atKey: boolean): Node | undefined {
  let node = document.contents as Node | null;
  for (const [index, key] of keys.entries()) {
    if (isAlias(node)) node = node.resolve(document) ?? node;
    if (isMap(node)) {
      const pair = node.items.findLast((item) => keyText(item.key) === String(key));
      if (!pair) return node;
      if (atKey && index === keys.length - 1) return pair.key as Node;
      node = (pair.value as Node | null) ?? (pair.key as Node);
    } else if (isSeq(node) && /^\d+$/.test(String(key)) && node.items[Number(key)]) {
      node = node.items[Number(key)] as Node;
    } else {
      return node ?? undefined;
    }
  }
  return node ?? undefined;
}

/**
 * Parses a YAML file's text, keeping every syntax error (not only the first) and every repeated
 * key, with its line and column. `secretsAt` is the key path of a map whose keys are personal
 * secrets (the prepopulation map), which a repeated-key problem then hides.
 */
export function readYamlFile(file: string, text: string, secretsAt?: ReadonlyArray<string | number>): YamlFile {
  const lineCounter = new LineCounter();
  // The yaml library's own check for repeated keys compares every key with every other: a
  // prepopulation file of 20,000 people would take minutes. The same check, with a set, takes a blink.
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false, lineCounter });
  const at = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { line, column: col };
  };
  const problems: FileProblem[] = document.errors.map((error) => ({
    file,
    ...(error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : at(error.pos[0])),
    path: '(syntax)',
    // The first line, without its place (the problem line gives it) nor the excerpt of the text below it.
    message: `is not valid YAML: ${error.message.split('\n')[0].replace(/ at line \d+, column \d+:$/, '')}`,
  }));
  const place = (found: readonly KeyedProblem[]): FileProblem[] =>
    found.map(({ keys, atKey, path, message }) => ({ file, ...at(nodeAt(document, keys, Boolean(atKey))?.range?.[0]), path, message }));
  if (problems.length) return { value: undefined, problems, place };
  const visit = (node: unknown, keys: Array<string | number>) => {
    if (isMap(node)) {
      const seen = new Set<string>();
      const secrets = secretsAt !== undefined && formatPath(keys) === formatPath(secretsAt);
      for (const pair of node.items) {
        const key = keyText(pair.key);
        if (seen.has(key)) {
          const shown = secrets ? hiddenSecret(key) : key;
          const problem = {
            keys: [...keys, key],
            path: formatPath([...keys, key]),
            message: `is not valid YAML: Map keys must be unique ("${shown}" is repeated)`,
          };
          problems.push({
            file,
            ...at((pair.key as Node | null)?.range?.[0]),
            path: (secrets ? hideSecretKey(problem, keys.length) : problem).path,
            message: problem.message,
          });
        }
        seen.add(key);
        visit(pair.value, [...keys, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...keys, index]));
    }
  };
  visit(document.contents, []);
  return { value: document.toJS() ?? {}, problems, place };
}
