import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOperators } from '../../../src/survey/operators/operators-file.ts';
import { ConfigError } from '../../../src/survey/errors.ts';
import { CONSOLE_ACTS, may, mayManage, roleOn, type ConsoleAct } from '../../../src/survey/operators/operator-rights.ts';
import { listSurveySlugs } from '../../../src/survey/config/loader.ts';
import type { Operator, OperatorRole } from '../../../src/survey/operators/operators.struct.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'peervote-operators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SLUGS = ['members-choice', 'top-doctors-demo'];

let files = 0;
/** Writes `text` as an operators file of its own and reads it against SLUGS. */
function read(text: string): Operator[] {
  const file = path.join(dir, `operators-${files++}.yaml`);
  writeFileSync(file, text);
  return readOperators(file, SLUGS);
}

/** The problems of a file that must be refused, as `line:column  path  message` lines. */
function problems(text: string): string[] {
  try {
    read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((problem) => `${problem.line}:${problem.column}  ${problem.path}  ${problem.message}`);
  }
  throw new Error('the file was taken');
}

describe('the operators file', () => {
  it('gives each operator a key in lower case, a name (else the address) and their roles', () => {
    const operators = read(`operators:
  - email: Ana@MetroHealth.example
    name: Ana Ruiz
    roles:
      top-doctors-demo: owner
      "*": auditor
  - email: ben@metrohealth.example
`);
    expect(operators).toEqual([
      { key: 'ana@metrohealth.example', email: 'Ana@MetroHealth.example', name: 'Ana Ruiz', roles: { 'top-doctors-demo': 'owner', '*': 'auditor' } },
      { key: 'ben@metrohealth.example', email: 'ben@metrohealth.example', name: 'ben@metrohealth.example', roles: {} },
    ]);
  });

  it.each([
    ['an empty file', ''],
    ['the key alone', 'operators:\n'],
    ['an empty list', 'operators: []\n'],
  ])('names no one in %s', (_name, text) => {
    expect(read(text)).toEqual([]);
  });

  it('names no one when there is no file', () => {
    expect(readOperators(path.join(dir, 'absent.yaml'), SLUGS)).toEqual([]);
  });

  it('is the sample in surveys/, whose made-up operators name real surveys', () => {
    const operators = readOperators(path.resolve('surveys/operators.yaml'), listSurveySlugs());
    expect(operators.map((operator) => operator.email)).toEqual([
      'owner@metrohealth.example',
      'second-owner@metrohealth.example',
      'reviewer@metrohealth.example',
      'manager@metrohealth.example',
      'auditor@metrohealth.example',
    ]);
    // One of each role, and two owners of the sealed survey, so that an early look can be tried.
    expect(new Set(operators.flatMap((operator) => Object.values(operator.roles)))).toEqual(new Set(['owner', 'reviewer', 'manager', 'auditor']));
    expect(operators.filter((operator) => operator.roles['verified-vote'] === 'owner')).toHaveLength(2);
  });

  // Each mistake, with the line and key the error must name and the words it must carry.
  it.each([
    [
      'an unknown role',
      'operators:\n  - email: a@x.example\n    roles:\n      top-doctors-demo: admin\n',
      '4:25  operators[0].roles.top-doctors-demo',
      'expected one of "auditor", "reviewer", "manager", "owner", got "admin"',
    ],
    [
      'an unknown survey',
      'operators:\n  - email: a@x.example\n    roles:\n      "*": auditor\n      top-doctor: owner\n',
      '5:7  operators[0].roles.top-doctor',
      'names no survey; the surveys are members-choice, top-doctors-demo',
    ],
    [
      'a malformed address',
      'operators:\n  - email: ana at example\n',
      '2:12  operators[0].email',
      'expected an email address such as ana@metrohealth.example, got "ana at example"',
    ],
    ['no address', 'operators:\n  - name: Ana\n', '2:5  operators[0].email', 'is required'],
    ['a misspelt key', 'operators:\n  - email: a@x.example\n    role:\n      "*": owner\n', '3:5  operators[0].role', 'is not a known key'],
    [
      'one address twice, in another case',
      'operators:\n  - email: a@x.example\n  - email: A@X.example\n',
      '3:12  operators[1].email',
      'is already the address of operators[0] (line 2)',
    ],
    ['a list where the file wants a mapping', '- email: a@x.example\n', '1:1  (top level)', 'expected a mapping with the key operators'],
    ['YAML that does not parse', 'operators:\n  - email: a@x.example\n    roles: {x: [1\n', '4:1  (syntax)', 'is not valid YAML'],
    ['a key twice', 'operators:\n  - email: a@x.example\n    email: b@x.example\n', '3:5  operators[0].email', 'Map keys must be unique ("email" is repeated)'],
  ])('refuses %s, naming its line and key', (_name, text, where, says) => {
    const found = problems(text);
    // An unclosed flow collection is two syntax errors to the parser, at one place.
    expect(found).toHaveLength(_name === 'YAML that does not parse' ? 2 : 1);
    expect(found[0]).toContain(`${where}  `);
    expect(found[0]).toContain(says);
  });

  it('names the file in its error, and every problem on a line of its own', () => {
    const file = path.join(dir, 'two-problems.yaml');
    writeFileSync(file, 'operators:\n  - email: a@x.example\n    roles:\n      top-doctors-demo: boss\n  - email: bad\n');
    expect(() => readOperators(file, SLUGS)).toThrow(
      `${file}:4:25  operators[0].roles.top-doctors-demo  expected one of "auditor", "reviewer", "manager", "owner", got "boss"\n${file}:5:12  operators[1].email  expected`,
    );
  });
});

const operator = (roles: Record<string, OperatorRole>, key = 'someone@x.example'): Operator => ({ key, email: key, name: key, roles });

describe('who may do what', () => {
  it("takes the higher of the survey's role and the role on every survey", () => {
    expect(roleOn(operator({ 'top-doctors-demo': 'owner', '*': 'auditor' }), 'top-doctors-demo')).toBe('owner');
    expect(roleOn(operator({ 'top-doctors-demo': 'owner', '*': 'auditor' }), 'members-choice')).toBe('auditor');
    expect(roleOn(operator({ 'top-doctors-demo': 'auditor', '*': 'manager' }), 'top-doctors-demo')).toBe('manager');
    expect(roleOn(operator({ 'top-doctors-demo': 'owner' }), 'members-choice')).toBeUndefined();
    expect(roleOn(operator({}), 'constructor')).toBeUndefined();
  });

  // Every act against every role: a role may do the acts of its own rank and below, never above.
  const ROLES: OperatorRole[] = ['auditor', 'reviewer', 'manager', 'owner'];
  const rows = ROLES.flatMap((role) =>
    (Object.keys(CONSOLE_ACTS) as ConsoleAct[]).map((act) => [role, act, ROLES.indexOf(role) >= ROLES.indexOf(CONSOLE_ACTS[act].role)] as const),
  );
  it.each(rows)('a %s may %s: %s', (role, act, allowed) => {
    expect(may(operator({ 'top-doctors-demo': role }), act, 'top-doctors-demo')).toBe(allowed);
    expect(may(operator({ '*': role }), act, 'members-choice')).toBe(allowed);
    expect(may(operator({ 'top-doctors-demo': role }), act, 'members-choice')).toBe(false);
  });

  it('lets an owner manage an operator only on surveys they own, and nobody themselves', () => {
    const owner = operator({ 'top-doctors-demo': 'owner', '*': 'manager' }, 'owner@x.example');
    expect(mayManage(owner, operator({ 'top-doctors-demo': 'auditor' }))).toBe(true);
    expect(mayManage(owner, operator({ 'top-doctors-demo': 'auditor', 'members-choice': 'auditor' }))).toBe(false);
    expect(mayManage(owner, operator({ '*': 'auditor' }))).toBe(false);
    expect(mayManage(owner, operator({}))).toBe(true);
    expect(mayManage(owner, owner)).toBe(false);
    expect(mayManage(operator({ '*': 'owner' }, 'all@x.example'), operator({ '*': 'auditor', 'members-choice': 'owner' }))).toBe(true);
    expect(mayManage(operator({ '*': 'manager' }, 'm@x.example'), operator({}))).toBe(false);
  });
});
