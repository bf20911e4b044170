import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import editorSchemas, { filesWithoutSchemaLine, writeEditorSchemas } from '../../../src/integrations/editor-schemas.ts';
import {
  EDITOR_SCHEMAS,
  REFERENCE_END,
  REFERENCE_START,
  referenceBlock,
  schemaLine,
  schemaText,
  withReference,
} from '../../../src/survey/config/editor-schemas.ts';

const [SURVEY, SITE] = EDITOR_SCHEMAS;

describe('the committed files', () => {
  it.each(EDITOR_SCHEMAS)('$file is what the structs and src/survey/config/config.docs.ts make', (entry) => {
    expect(readFileSync(entry.file, 'utf8'), `${entry.file} differs from what the structs make: run npm run schemas`).toBe(schemaText(entry));
  });

  it('docs/surveys.md holds the reference of the keys as they are', () => {
    const guide = readFileSync('docs/surveys.md', 'utf8');
    expect(guide).toContain(REFERENCE_START);
    expect(withReference(guide, referenceBlock()), 'the reference in docs/surveys.md is stale: run npm run schemas').toBe(guide);
  });

  it('every survey.yaml and site.yaml under surveys/ starts with the line that names its schema', () => {
    const lacking = filesWithoutSchemaLine('.').map(({ file, line }) => `${file} lacks its first line: ${line}`);
    expect(lacking).toEqual([]);
    expect(readFileSync('surveys/top-doctors-demo/survey.yaml', 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/survey\.schema\.json\n/);
    expect(readFileSync('surveys/site.yaml', 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/site\.schema\.json\n/);
  });
});

describe('the schema line', () => {
  it('leads from the file to the schema at the root', () => {
    expect(schemaLine(SURVEY)).toBe('# yaml-language-server: $schema=../../survey.schema.json');
    expect(schemaLine(SITE)).toBe('# yaml-language-server: $schema=../site.schema.json');
  });
});

describe('writing the schemas and the reference', () => {
  let root = '';
  const PROSE_BEFORE = '# Surveys\n\nHow to write a survey.\n\n';
  const PROSE_AFTER = '\n\n## After\n\nMore prose.\n';
  const file = (name: string) => path.join(root, name);
  const read = (name: string) => readFileSync(file(name), 'utf8');
  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), text);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'editor-schemas-'));
    write('docs/surveys.md', `${PROSE_BEFORE}${REFERENCE_START}\nan old table\n${REFERENCE_END}${PROSE_AFTER}`);
    write('surveys/demo/survey.yaml', `${schemaLine(SURVEY)}\nproject_id: demo\n`);
    write('surveys/site.yaml', `${schemaLine(SITE)}\ndefault_survey: demo\n`);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes each schema, and the reference between its marker lines, leaving the prose around it', () => {
    expect(writeEditorSchemas(root)).toEqual({ written: ['survey.schema.json', 'site.schema.json', 'operators.schema.json', 'docs/surveys.md'], problems: [] });
    expect(JSON.parse(read('survey.schema.json'))).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      required: ['project_id', 'layout', 'categories'],
    });
    expect(read('site.schema.json')).toBe(schemaText(SITE));
    expect(read('docs/surveys.md')).toBe(`${PROSE_BEFORE}${referenceBlock()}${PROSE_AFTER}`);
  });

  it('writes nothing when nothing changed, so the files keep their times', () => {
    writeEditorSchemas(root);
    const past = new Date('2020-01-01T00:00:00Z');
    for (const name of ['survey.schema.json', 'site.schema.json', 'docs/surveys.md']) utimesSync(file(name), past, past);
    expect(writeEditorSchemas(root)).toEqual({ written: [], problems: [] });
    for (const name of ['survey.schema.json', 'site.schema.json', 'docs/surveys.md']) expect(statSync(file(name)).mtime).toEqual(past);
  });

  it('puts back a schema edited by hand', () => {
    writeEditorSchemas(root);
    write('site.schema.json', '{}\n');
    expect(writeEditorSchemas(root).written).toEqual(['site.schema.json']);
    expect(read('site.schema.json')).toBe(schemaText(SITE));
  });

  it('says where the guide lacks its marker lines, and leaves it alone', () => {
    write('docs/surveys.md', '# Surveys\n');
    const { written, problems } = writeEditorSchemas(root);
    expect(written).not.toContain('docs/surveys.md');
    expect(problems).toEqual([`docs/surveys.md: the reference of the keys goes between the lines ${REFERENCE_START} and ${REFERENCE_END}, which it lacks`]);
    expect(read('docs/surveys.md')).toBe('# Surveys\n');
  });

  it('names a survey file whose first line does not name its schema, with the line it needs', () => {
    write('surveys/other/survey.yaml', '# A survey.\nproject_id: other\n');
    write('surveys/site.yaml', `# yaml-language-server: $schema=../survey.schema.json\ndefault_survey: demo\n`);
    expect(filesWithoutSchemaLine(root)).toEqual([
      { file: 'surveys/other/survey.yaml', line: schemaLine(SURVEY) },
      { file: 'surveys/site.yaml', line: schemaLine(SITE) },
    ]);
    expect(writeEditorSchemas(root).problems).toEqual([
      `surveys/other/survey.yaml: needs this first line, which names its schema to editors: ${schemaLine(SURVEY)}`,
      `surveys/site.yaml: needs this first line, which names its schema to editors: ${schemaLine(SITE)}`,
    ]);
  });

  describe('when a build starts', () => {
    const setup = (command: string) => {
      const logger = { info: vi.fn(), warn: vi.fn() };
      editorSchemas().hooks['astro:config:setup']!({ command, config: { root: pathToFileURL(`${root}/`) }, logger } as never);
      return logger;
    };

    it('brings the files up to date, and says so', () => {
      vi.stubEnv('CI', '');
      const logger = setup('build');
      expect(read('site.schema.json')).toBe(schemaText(SITE));
      expect(logger.info).toHaveBeenCalledWith(
        'brought up to date with the structs: survey.schema.json, site.schema.json, operators.schema.json, docs/surveys.md',
      );
      expect(logger.warn).not.toHaveBeenCalled();
    });

    it('warns of what stands in the way', () => {
      vi.stubEnv('CI', '');
      write('surveys/other/survey.yaml', 'project_id: other\n');
      expect(setup('build').warn).toHaveBeenCalledWith(expect.stringMatching(/^surveys\/other\/survey\.yaml: needs this first line/));
    });

    it('on CI, writes nothing and warns of each stale file, for the unit tests that follow to fail on', () => {
      vi.stubEnv('CI', 'true');
      const logger = setup('build');
      expect(() => read('site.schema.json')).toThrow(/ENOENT/);
      expect(logger.warn).toHaveBeenCalledWith('site.schema.json: differs from what the structs make: run npm run schemas, and commit it');
      expect(logger.warn).toHaveBeenCalledWith('docs/surveys.md: differs from what the structs make: run npm run schemas, and commit it');
      expect(logger.info).not.toHaveBeenCalled();
    });

    it('writes nothing for the dev server or the tests, which load the configuration too', () => {
      const logger = setup('dev');
      expect(() => read('site.schema.json')).toThrow(/ENOENT/);
      expect(logger.info).not.toHaveBeenCalled();
    });
  });
});
