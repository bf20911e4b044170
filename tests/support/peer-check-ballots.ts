/** A hand-built ballot of the peer-check survey: who, when, which link, which votes (tests/support/results-db.ts stores them). */
export interface HandBallot {
  at: string;
  link?: 'public' | 'personal' | 'demo';
  secret?: string;
  answers?: Record<string, string>;
  /** `Sub-category: id, id, …` in slot order. */
  votes?: Record<string, string[]>;
  writeIns?: Array<[name: string, subcategory: string]>;
  faces?: string;
}

const carl = { 'name-first': 'Carl', 'name-last': 'Lee', email: 'carl@example.org', 'medical-license': 'MD-5000', 'medical-practice': 'Riverside Heart' };

/**
 * Ballots for the peer-check survey that touch every integrity rule once, in the order they
 * arrive; the tests that tally them (unit and end-to-end) expect PEER_CHECK_TALLY.
 */
export const PEER_CHECK_BALLOTS: HandBallot[] = [
  // 1. Counted in full.
  { at: '2030-01-01T09:00:00Z', answers: carl, votes: { Cardiology: ['c-2', 'c-3'], Dermatology: ['d-1'] }, faces: 'cardiology' },
  // 2. Carl again, the email in capitals: a duplicate of 1.
  { at: '2030-01-01T09:05:00Z', answers: { ...carl, email: 'CARL@example.org', 'medical-license': '' }, votes: { Cardiology: ['c-4'] } },
  // 3. Ana (personal link, nominee c-1) names herself and one nominee outside her practice: her self-vote is excluded.
  {
    at: '2030-01-01T09:10:00Z',
    secret: 'sec-ana-R7kw2Pq',
    answers: { 'name-first': 'Ana', 'name-last': 'Ferreira', 'medical-license': 'MD-1001', 'medical-practice': 'Northgate Clinic' },
    votes: { Cardiology: ['c-1', 'c-2'] },
  },
  // 4. Greta (nominee d-3) names herself, one colleague of Skin Partners and one outsider: excluded.
  {
    at: '2030-01-01T09:15:00Z',
    secret: 'sec-greta-X4mz9',
    answers: { 'name-first': 'Greta', 'name-last': 'Olsen', 'medical-practice': 'Skin Partners' },
    votes: { Dermatology: ['d-3', 'd-2', 'd-1'] },
  },
  // 5. Dana, known by name and license, names herself and two outsiders: counted.
  {
    at: '2030-01-01T09:20:00Z',
    answers: { 'name-first': 'Dana', 'name-last': 'Kowalski', 'medical-license': 'md 1004', 'medical-practice': 'Northgate Clinic' },
    votes: { Cardiology: ['c-4', 'c-2', 'c-3'] },
    faces: 'cardiology',
  },
  // 6. The demo secret: not counted.
  { at: '2030-01-01T09:25:00Z', link: 'demo', answers: { 'name-first': 'Demo', 'name-last': 'User' }, votes: { Cardiology: ['c-2'] } },
  // 7. Another email but Carl's license: a duplicate of 1.
  {
    at: '2030-01-01T09:30:00Z',
    answers: { 'name-first': 'C.', 'name-last': 'Lee', email: 'c.lee@example.org', 'medical-license': 'md5000' },
    votes: { Dermatology: ['d-2'] },
  },
  // 8. Write-ins: merged into c-2, a new nominee, and a rejected one.
  {
    at: '2030-01-01T09:35:00Z',
    answers: { 'name-first': 'Zed', 'name-last': 'Young', email: 'zed@example.org' },
    votes: { Cardiology: ['c-3'] },
    writeIns: [
      ['Dr. Bo Lindqvist', 'Cardiology'],
      ['Hana Sato', 'Dermatology'],
      ['Mickey Mouse', 'Cardiology'],
    ],
  },
  // 9. c-2 in a slot and again as a write-in: counted once. A write-in nobody has decided on yet.
  {
    at: '2030-01-01T09:40:00Z',
    answers: { 'name-first': 'Yan', 'name-last': 'Ito', email: 'yan@example.org' },
    votes: { Cardiology: ['c-2'] },
    writeIns: [
      ['bo lindqvist', 'Cardiology'],
      ['Nobody Known', 'Dermatology'],
    ],
  },
];

/** The decisions an operator takes on those write-ins: [name, sub-category, resolution]. */
export const PEER_CHECK_DECISIONS = [
  ['Bo Lindqvist', 'Medicine / Cardiology', { action: 'merge', nomineeId: 'c-2' }],
  ['Hana Sato', 'Medicine / Dermatology', { action: 'new', nomineeId: 'wi-hana-sato' }],
  ['Mickey Mouse', 'Medicine / Cardiology', { action: 'reject' }],
] as const;

/** The tally CSV of those ballots and decisions, with --threshold 2. */
export const PEER_CHECK_TALLY = [
  'category,subcategory,rank,nominee_id,nominee,practice,counted,share,winner,excluded_demo_ballot,excluded_operator_excluded,excluded_duplicate_ballot,excluded_not_on_list,excluded_repeat_on_ballot,excluded_self_vote',
  'Medicine,Cardiology,1,c-2,Bo Lindqvist,Riverside Heart,5,55.6,yes,1,0,0,0,1,0',
  'Medicine,Cardiology,2,c-3,Chen Wei,Lakeside Group,3,33.3,yes,0,0,0,0,0,0',
  'Medicine,Cardiology,3,c-4,Dana Kowalski,Northgate Clinic,1,11.1,,0,0,1,0,0,0',
  'Medicine,Cardiology,,c-1,Ana Ferreira,Northgate Clinic,0,0.0,,0,0,0,0,0,1',
  'Medicine,Dermatology,1,d-1,Émile Roux,Skin Partners,2,50.0,yes,0,0,0,0,0,0',
  'Medicine,Dermatology,2,d-2,Fatima Khan,Northgate Clinic,1,25.0,yes,0,0,1,0,0,0',
  'Medicine,Dermatology,2,wi-hana-sato,Hana Sato,,1,25.0,yes,0,0,0,0,0,0',
  'Medicine,Dermatology,,d-3,Greta Olsen,Skin Partners,0,0.0,,0,0,0,0,0,1',
]
  .map((line) => `${line}\r\n`)
  .join('');
