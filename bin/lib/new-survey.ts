import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, parseDocument, stringify, type Node, type Pair } from 'yaml';
import { is } from 'superstruct';
import { SurveyConfig } from '../../src/survey/config/config.struct.ts';
import { listSurveySlugs, prepopulationFile, readSurvey } from '../../src/survey/config/loader.ts';
import { checkSurveys } from '../../src/survey/config/survey-check.ts';
import { quoted } from '../../src/survey/errors.ts';
import { RESERVED_SLUGS, slugProblem } from '../../src/survey/config/slug.ts';
import { siteSchemaLine, surveySchemaLine } from '../../src/survey/config/editor-schemas.ts';

/** A reason not to make the survey, in one line; nothing has been written. */
export class Refusal extends Error {}

/** What to make: the new survey's slug, and what the command line says of it. */
export interface NewSurveyOptions {
  /** The surveys folder (SURVEYS_DIR). */
  dir: string;
  slug: string;
  /** The slug of a survey to copy the settings of. */
  from?: string;
  projectId?: string;
  title?: string;
  /** The checkout whose top-level pages and public files no slug may take. */
  root: string;
}

/** What was made: the folder, its files (from the folder), and what the author should know of the copy. */
export interface NewSurvey {
  folder: string;
  files: string[];
  notes: string[];
}

/** The mail templates a survey folder may hold (mail-templates.ts reads them), copied with its settings. */
const MAIL_FILES = ['invitation.md', 'reminder.md', 'receipt.md'];

/** A path as a message shows it: from the current folder when it is inside it, else in full. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** A text as a YAML scalar on one line: plain when it reads back the same, else quoted. */
function scalar(text: string): string {
  return stringify(text, { lineWidth: 0 }).trimEnd();
}

/** A title from a slug: `peer-vote-2027` → `Peer Vote 2027`. */
function titleOf(slug: string): string {
  return slug
    .split('-')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** A new survey's settings: a small peer vote, every required key said what it is, the optional ones worth knowing commented out. */
function surveyYaml(slug: string, projectId: string, title: string): string {
  return `${surveySchemaLine}
# The settings of one survey, whose folder's name is its address: /${slug}/.
# \`npm run check:surveys -- surveys/${slug}\` checks this file and the files it names,
# with the line and column of each mistake.

# The survey's id in the API and on every ballot: unique across the surveys, and kept once voting starts.
project_id: ${scalar(projectId)}
# The title at the top of every page, and the page title.
survey_title: ${scalar(title)}
# survey_subtitle: A line under the title
# publication_logo: /media/logo.svg   # an image in public/media/, or an https:// address

# The welcome block above the ballot (HTML), shown when \`welcome\` is set.
# welcome_title: Who would you send your own family to?
# welcome: |
#   <p>Name the colleagues you would trust with the care of your own family.</p>

# Listed above the ballot under "Rules for Submission".
rules:
  - One ballot per person.
  - Vote only for colleagues you would personally endorse.

# When the vote closes: 2030-12-31 (the end of that day, UTC) or a full time. Without it, never.
# expiration_date: "2030-12-31"

# The fields a voter fills in, row by row; a row's fields stand side by side.
layout:
  - - name: name
      type: nested
      label: Your name
      fields:
        - name: name-first
          type: text
          label: First name
          personal: true
          validation: { required: true }
        - name: name-last
          type: text
          label: Last name
          personal: true
          validation: { required: true }
  - - name: email
      type: email
      label: Email
      personal: true
      validation: { required: true, email: true }
  - - name: medical-practice
      type: text
      label: Practice or hospital
      validation: { required: true }
    - name: medical-license
      type: text
      label: License number
      placeholder: e.g. MD-123456
      personal: true
      validation: { required: true }
  - - name: nomination
      type: nomination
      label: Your nominations

# What voters nominate in: each group with its sub-categories (no "[" or "]" in a name).
categories:
  Primary Care:
    - Family Medicine
    - Pediatrics
  Specialists:
    - Cardiology
    - Dermatology

# The nominee list voters pick from: a CSV file (id, name, and optionally specialty, city,
# practice) or a JSON Lines file, in this folder. A specialty equal to a sub-category's name
# leads that sub-category's suggestions.
nominees: nominees.csv
# Nomination places per sub-category, 1 to 5.
votes_per_category: 3
# The fewest names a ballot must carry.
vote_requirement: 1
# The most people a ballot may write in who are not on the list.
write_in_limit: 5

# The fields the tally reads: the voter's workplace (same-practice rule, workplace figures) and license number.
workplace_field: medical-practice
license_field: medical-license

# Statements the voter affirms before sending; an empty list hides them.
affirmation_points:
  - This is my one and only submission.

# The thank-you page's text (HTML).
thank_you_message: |
  <p>Thank you for taking part. The results will be announced when the vote has closed.</p>

# Who may vote. Without these keys, anyone with the public link, once.
# blank_surveys: false                 # personal links only: the public link opens no ballot
# prepopulation: prepopulation.yaml    # personal links and what they fill in: \`npm run results -- invite\` writes it
# verify: email                        # a mailed code proves each address (or roster: an invited person)
# amend: until_close                   # a voter may send a new ballot that replaces theirs, until the close

# The mail Peervote sends (invitations, reminders, receipts); mail/*.md words it.
# mail:
#   from: "Peer Vote <votes@example.org>"
#   reply_to: editors@example.org
#   receipt: true                      # a ballot from a personal link or a proven address gets its receipt by mail

# Sealed results: no tally, export, report or publication before expiration_date, which it then needs.
# results:
#   sealed: true

# How the votes are counted; \`npm run results -- methodology ${slug}\` prints the rules in full.
# tally:
#   self_vote: { rule: outside_votes, outside_votes: 2 }
#   points: [1]                        # [3, 2, 1] weighs a first choice more
`;
}

/** A few made-up nominees, one per sub-category and more, in the CSV form the nominee list takes. */
const NOMINEES_CSV = `id,name,specialty,city,practice
n001,Noor Haddad,Family Medicine,Riverside,Riverside Family Clinic
n002,Tomás Reyes,Pediatrics,Northgate,Northgate Children's Clinic
n003,Ingrid Solberg,Cardiology,Lakeview,Lakeview Heart Center
n004,Kwame Mensah,Dermatology,Bayshore,Bayshore Skin Care
n005,Mei Lin Chen,Family Medicine,Lakeview,Lakeview Family Practice
n006,Priya Raman,Cardiology,Riverside,Riverside Heart Institute
`;

/** The invitation `invite` mails with each personal link: its subject, then its Markdown body. */
const INVITATION_MD = `---
subject: "Your invitation to vote: {{survey_title}}"
---
Dear {{name}},

You are invited to take part in **{{survey_title}}**. Your personal link opens your ballot:

[Open your ballot]({{url}})

Or paste this link into your browser: {{url}}

The link is yours alone: please do not forward it.
`;

/** One change to a text: the characters from `start` to `end` replaced by `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The offset where the line holding `offset` begins. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the line holding `offset` (its line break included). */
function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end < 0 ? text.length : end + 1;
}

/**
 * A survey.yaml copied for a new survey, edited in place so that its comments and layout stay as
 * written: the new project_id (and title, when given); no prepopulation, whose people are the
 * source's (the key becomes a comment saying so); the schema line first.
 */
function copiedSurveyYaml(text: string, from: string, projectId: string, title: string | undefined): string {
  const document = parseDocument(text, { uniqueKeys: false });
  const top = document.contents;
  if (!isMap(top)) throw new Refusal(`surveys/${from}/survey.yaml holds no settings to copy.`);
  const pairOf = (key: string) => top.items.findLast((pair: Pair) => isScalar(pair.key) && pair.key.value === key);
  const valueRange = (pair: Pair) => (pair.value as Node).range!;
  const edits: Edit[] = [];
  const idPair = pairOf('project_id')!;
  edits.push({ start: valueRange(idPair)[0], end: valueRange(idPair)[1], text: scalar(projectId) });
  const titlePair = pairOf('survey_title');
  if (title !== undefined && titlePair) {
    edits.push({ start: valueRange(titlePair)[0], end: valueRange(titlePair)[1], text: scalar(title) });
  } else if (title !== undefined) {
    const after = lineEnd(text, valueRange(idPair)[1]);
    edits.push({ start: after, end: after, text: `survey_title: ${scalar(title)}\n` });
  }
  const people = pairOf('prepopulation');
  if (people) {
    const key = people.key as Node;
    const start = lineStart(text, key.range![0]);
    const end = lineEnd(text, Math.max(key.range![2], ((people.value as Node | null)?.range?.[2] ?? 1) - 1));
    const note = `# prepopulation: prepopulation.yaml   # not copied from ${from}: its people are its own; \`npm run results -- invite\` writes this survey's\n`;
    edits.push({ start, end, text: note });
  }
  let copied = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) copied = copied.slice(0, edit.start) + edit.text + copied.slice(edit.end);
  const lines = copied.split('\n').filter((line) => !/^#\s*yaml-language-server:/.test(line));
  return `${surveySchemaLine}\n${lines.join('\n')}`;
}

/** The first segments a new survey may not take: the site's own, and the top-level pages and public files of the checkout. */
function reservedSlugs(root: string): string[] {
  const names = (folder: string) => (existsSync(folder) ? readdirSync(folder) : []);
  const pages = names(path.join(root, 'src', 'pages'))
    .filter((name) => !name.startsWith('['))
    .map((name) => name.replace(/\.(astro|md|mdx|html|ts|js)$/, ''));
  return [...RESERVED_SLUGS, ...pages, ...names(path.join(root, 'public'))];
}

/** The surveys of the folder by project_id, as their files say (a file with problems elsewhere still names its id). */
function projectIds(dir: string, slugs: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const slug of slugs) {
    const { survey, raw } = readSurvey(slug, dir);
    const id = survey?.config.project_id ?? raw.project_id;
    if (typeof id === 'string' && !ids.has(id)) ids.set(id, slug);
  }
  return ids;
}

/** Every file of the new survey, by its path in the folder, with its text. */
function surveyFiles(options: NewSurveyOptions, projectId: string, slugs: string[]): { files: Map<string, string>; notes: string[] } {
  const { dir, slug, from, title } = options;
  if (from === undefined) {
    const files = new Map([
      ['survey.yaml', surveyYaml(slug, projectId, title ?? titleOf(slug))],
      ['nominees.csv', NOMINEES_CSV],
      [path.join('mail', 'invitation.md'), INVITATION_MD],
    ]);
    return { files, notes: [] };
  }
  if (!slugs.includes(from)) throw new Refusal(`There is no survey ${quoted(from)} to copy; the surveys are ${slugs.join(', ') || 'none yet'}.`);
  const source = path.join(dir, from);
  // The copy must pass the check: the source's own problems are to be fixed there first (its people's aside: they are not copied).
  const reading = readSurvey(from, dir);
  const people = reading.survey && typeof reading.survey.config.prepopulation === 'string' ? prepopulationFile(reading.survey) : undefined;
  const problems = checkSurveys(dir, [from]).problems.filter(
    (problem) =>
      problem.file !== people && problem.file !== path.join(dir, 'site.yaml') && !/^prepopulation\b/.test(problem.path) && problem.path !== 'project_id',
  );
  if (problems.length || !reading.survey) {
    throw new Refusal(`surveys/${from} has problems to fix before it is copied: npm run check:surveys -- surveys/${from}`);
  }
  const { config } = reading.survey;
  const files = new Map([['survey.yaml', copiedSurveyYaml(readFileSync(path.join(source, 'survey.yaml'), 'utf8'), from, projectId, title)]]);
  if (config.nominees) files.set(config.nominees, readFileSync(path.join(source, config.nominees), 'utf8'));
  for (const name of MAIL_FILES) {
    const file = path.join(source, 'mail', name);
    if (existsSync(file)) files.set(path.join('mail', name), readFileSync(file, 'utf8'));
  }
  const notes = [];
  if (config.prepopulation !== undefined) notes.push(`The personal links of ${from} are not copied: \`npm run results -- invite\` makes this survey's.`);
  if (config.expiration_date && Date.parse(config.expiration_date) < Date.now()) {
    notes.push(`expiration_date ${config.expiration_date} is copied from ${from} and has passed: set the new close in survey.yaml.`);
  }
  return { files, notes };
}

/**
 * Makes `surveys/<slug>/` (a new survey, or a copy of another's settings without its people or
 * results), or refuses with a Refusal, having written nothing. The files are written into a hidden
 * folder beside it (which no reader takes for a survey) and renamed into place at once, so that a
 * failure halfway leaves no half-made survey. An empty surveys folder gets a site.yaml naming it.
 */
export function newSurvey(options: NewSurveyOptions): NewSurvey {
  const { dir, slug } = options;
  const problem = slugProblem(slug, reservedSlugs(options.root));
  if (problem) throw new Refusal(`${problem}.`);
  const folder = path.join(dir, slug);
  if (existsSync(folder)) throw new Refusal(`${shown(folder)} already exists: choose another slug, or edit that survey.`);
  const projectId = options.projectId ?? slug;
  if (!is(projectId, SurveyConfig.schema.project_id) || /[\r\n]/.test(projectId)) throw new Refusal(`${quoted(projectId)} cannot be a project_id.`);
  if (options.title !== undefined && /[\r\n]/.test(options.title)) throw new Refusal('The title is one line.');
  const slugs = existsSync(dir) ? listSurveySlugs(dir) : [];
  const owner = projectIds(dir, slugs).get(projectId);
  if (owner) throw new Refusal(`project_id ${quoted(projectId)} is already the project_id of survey "${owner}": choose another with --project-id.`);
  const { files, notes } = surveyFiles(options, projectId, slugs);
  const site = path.join(dir, 'site.yaml');
  const writesSite = !existsSync(site);
  let staging: string | undefined;
  let moved = false;
  try {
    mkdirSync(dir, { recursive: true });
    // A hidden name, which no reader takes for a survey; made with the folder's usual mode (mkdtemp's is the owner's alone).
    staging = path.join(dir, `.${slug}-${randomBytes(6).toString('hex')}`);
    mkdirSync(staging);
    for (const [name, text] of files) {
      mkdirSync(path.dirname(path.join(staging, name)), { recursive: true });
      writeFileSync(path.join(staging, name), text, { flag: 'wx' });
    }
    if (writesSite) {
      const text = `${siteSchemaLine}\n# Site-wide settings for every survey under this folder.\n# The survey that "/" leads to.\ndefault_survey: ${slug}\n`;
      writeFileSync(path.join(staging, '.site.yaml'), text, { flag: 'wx' });
    }
    renameSync(staging, folder);
    moved = true;
    if (writesSite) renameSync(path.join(folder, '.site.yaml'), site);
  } catch (error) {
    // Whatever was written goes: the hidden folder, or the survey moved into place before site.yaml failed.
    if (staging) rmSync(moved ? folder : staging, { recursive: true, force: true });
    throw new Refusal(`Cannot write ${shown(folder)} (${(error as Error).message}); nothing was written.`);
  }
  const written = [...files.keys()].map((name) => name.split(path.sep).join('/'));
  return { folder, files: written, notes: writesSite ? [...notes, `Wrote ${shown(site)} too, whose default survey is ${slug}.`] : notes };
}
