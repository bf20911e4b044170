// Made-up nominees for demos, tests and benchmarks: seeded, so the same options give the same
// list on every machine. Names mix many origins, with diacritics, hyphens, apostrophes and
// surnames that many nominees share, so that search is tried on what real lists hold.
import type { Nominee } from '../../src/survey/nominees/nominee.struct.ts';

const FIRST_NAMES = [
  'Aaliyah',
  'Abigail',
  'Adaeze',
  'Adrián',
  'Ahmed',
  'Aiko',
  'Aleksander',
  'Alejandro',
  'Alice',
  'Amara',
  'Amelia',
  'Ana',
  'Anders',
  'Andrea',
  'Ángel',
  'Anh',
  'Anjali',
  'Ann',
  'Anna',
  'Anneliese',
  'Arjun',
  'Åsa',
  'Ayşe',
  'Beatriz',
  'Benjamin',
  'Björn',
  'Bogdan',
  'Camille',
  'Carlos',
  'Caroline',
  'Catalina',
  'Chidi',
  'Chloé',
  'Christopher',
  'Çağla',
  'Daniel',
  'Daniela',
  'David',
  'Deepa',
  'Diego',
  'Dmitri',
  'Dorothée',
  'Efua',
  'Elena',
  'Elif',
  'Elijah',
  'Emeka',
  'Emily',
  'Emre',
  'Erik',
  'Esther',
  'Fatima',
  'Felipe',
  'François',
  'Freya',
  'Gabriel',
  'Gareth',
  'Grace',
  'Guðrún',
  'Hana',
  'Hannah',
  'Hassan',
  'Hélène',
  'Hiroshi',
  'Ibrahim',
  'Ifeoma',
  'Ingrid',
  'Inés',
  'Isabel',
  'Ivan',
  'Jacob',
  'James',
  'Jan',
  'Javier',
  'Jennifer',
  'Jessica',
  'Jin',
  'Joaquín',
  'John',
  'Jonathan',
  'José',
  'Joseph',
  'Josephine',
  'Juan',
  'Julia',
  'Jürgen',
  'Kateryna',
  'Kavya',
  'Kenji',
  'Kwame',
  'Laila',
  'Lars',
  'Laura',
  'Layla',
  'Leila',
  'Léa',
  'Liam',
  'Lin',
  'Lucía',
  'Łukasz',
  'Magdalena',
  'Mai',
  'Małgorzata',
  'Manuel',
  'Marcus',
  'Margarethe',
  'María',
  'Maria',
  'Mariam',
  'Mark',
  'Mary',
  'Mateo',
  'Matthew',
  'Mei',
  'Michael',
  'Miguel',
  'Mikael',
  'Minh',
  'Mohammed',
  'Nadia',
  'Naomi',
  'Nathaniel',
  'Ngozi',
  'Niamh',
  'Nikolai',
  'Noah',
  'Noémie',
  'Nuño',
  'Oisín',
  'Olga',
  'Oliver',
  'Olivia',
  'Omar',
  'Oluwaseun',
  'Pablo',
  'Paul',
  'Paulina',
  'Pedro',
  'Priya',
  'Rachel',
  'Rafael',
  'Rahul',
  'Raúl',
  'Rebecca',
  'Renée',
  'Ricardo',
  'Rosa',
  'Ryan',
  'Sakura',
  'Samuel',
  'Sara',
  'Sarah',
  'Seán',
  'Sebastián',
  'Şebnem',
  'Shreya',
  'Siobhán',
  'Sofía',
  'Søren',
  'Stefan',
  'Sunil',
  'Tamar',
  'Thanh',
  'Thomas',
  'Tomás',
  'Þóra',
  'Valentina',
  'Victoria',
  'Vikram',
  'Wei',
  'William',
  'Xavier',
  'Yaw',
  'Yusuf',
  'Yuki',
  'Zainab',
  'Zoë',
  'Zoltán',
];

/** Surnames, most common first: the first ones are shared by many nominees. */
const SURNAMES = [
  'Smith',
  'Nguyen',
  'Garcia',
  'Patel',
  'Kim',
  'Johnson',
  'Lee',
  'Williams',
  'Chen',
  'Rodríguez',
  'Brown',
  'Martínez',
  'Khan',
  'Singh',
  'Cohen',
  'Davis',
  "O'Brien",
  'Müller',
  'Okafor',
  'Hernández',
  'Wang',
  'López',
  'Miller',
  'Ali',
  'Wilson',
  'González',
  'Anderson',
  'Taylor',
  'Thomas',
  'Moore',
  'Jackson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  "D'Angelo",
  "O'Connor",
  'McAllister',
  'MacLeod',
  'Fernández',
  'Gómez',
  'Núñez',
  'Peña',
  'Ibáñez',
  'Pérez',
  'Sánchez',
  'Lefèvre',
  'Dubois',
  'Moreau',
  'Girard',
  'Dvořák',
  'Novák',
  'Kowalczyk',
  'Wiśniewski',
  'Søndergaard',
  'Nørgaard',
  'Björklund',
  'Ångström',
  'Lindqvist',
  'Çelik',
  'Şahin',
  'Yılmaz',
  'Öztürk',
  'Nakamura',
  'Yamamoto',
  'Tanaka',
  'Sato',
  'Ivanova',
  'Petrov',
  'Haddad',
  'Mensah',
  'Adeyemi',
  'Oyelaran',
  'Nwosu',
  'Osei',
  'Abebe',
  'Al-Sayed',
  'Abu-Bakr',
  'Van der Berg',
  'De la Cruz',
  'Ó Súilleabháin',
  "N'Diaye",
  'Kapoor',
  'Reddy',
  'Iyer',
  'Gupta',
  'Shah',
  'Tran',
  'Pham',
  'Le',
  'Hoang',
  'Park',
  'Choi',
  'Jung',
  'Schneider',
  'Fischer',
  'Weiß',
  'Schröder',
  'Rossi',
  'Bianchi',
  'Esposito',
  'Greco',
  'Costa',
  'Silva',
  'Santos',
  'Oliveira',
  'Friedman',
  'Katz',
  'Weiss',
  'Levi',
  'Goldberg',
  'Ferreira',
  'Weatherby',
  'Ashworth',
  'Pennington',
  'Whitlock',
  'Castellanos',
];

const CITIES = [
  'Northgate',
  'Riverside',
  'Lakeview',
  'Port Ellis',
  'Millbrook',
  'Cedar Falls',
  'St. Agnes',
  'Bayshore',
  'Harrow Heights',
  'Old Mill',
  'Eastwick',
  'Fairhaven',
  'Kingsbridge',
  'Willow Creek',
  'Ashford',
  'Brookhaven',
  'Marlow',
  'Glen Ridge',
];

const PRACTICE_KINDS = [
  'Family Clinic',
  'Medical Group',
  'Health Center',
  'General Hospital',
  'Heart Institute',
  "Children's Hospital",
  'Surgical Partners',
  'Orthopedic Associates',
  'Physicians',
  'Care Partners',
  'University Hospital',
  'Community Clinic',
];

const DENTAL_PRACTICE_KINDS = ['Dental Care', 'Family Dentistry', 'Dental Group', 'Smile Studio', 'Orthodontics', 'Dental Arts', 'Periodontal Associates'];

/** Specialties beyond a survey's own categories, for long lists. */
const EXTRA_SPECIALTIES = [
  'Dermatology',
  'Neurology',
  'Oncology',
  'Gastroenterology',
  'Psychiatry',
  'Radiology',
  'Obstetrics and Gynecology',
  'Ophthalmology',
  'Urology',
  'Endocrinology',
  'Rheumatology',
  'Nephrology',
];

/** Nominees every generated list of the demo survey starts with, for tests and demonstrations. */
const ANCHORS: Array<Omit<Nominee, 'id'>> = [
  { name: 'José Álvarez-Ruiz', specialty: 'Cardiology', city: 'Riverside', practice: 'Riverside Heart Institute' },
  { name: "Siobhán O'Brien", specialty: 'Pediatrics', city: 'Northgate', practice: "Northgate Children's Hospital" },
  { name: 'Zoë Nguyen-Laurent', specialty: 'Family Medicine', city: 'Lakeview', practice: 'Lakeview Family Clinic' },
  { name: "Mary-Kate D'Angelo", specialty: 'Internal Medicine', city: 'Bayshore', practice: 'Bayshore Medical Group' },
  { name: 'Łukasz Kowalczyk', specialty: 'Neurosurgery', city: 'Kingsbridge', practice: 'Kingsbridge University Hospital' },
  { name: 'Maria Garcia', specialty: 'Family Medicine', city: 'Northgate', practice: 'Northgate Family Clinic' },
  { name: 'Maria Garcia', specialty: 'Cardiology', city: 'Lakeview', practice: 'Lakeview Heart Institute' },
  { name: 'Benjamin Castellanos', specialty: 'Orthopedic Surgery', city: 'Ashford', practice: 'Ashford Orthopedic Associates' },
];

/**
 * A seeded pseudo-random generator (mulberry32): numbers in [0, 1).
 * Exported only so the search bench (which seeds its own queries) can check it directly; the product reaches it through the nominee generator.
 * @internal
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a text, so that each survey gets its own list. */
export function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/** What to generate. */
export interface GenerateOptions {
  count: number;
  seed: number;
  /** The survey's own specialties (its sub-categories): most nominees practise one of these. */
  specialties: string[];
  /** Start with the fixed demo nominees. */
  anchors?: boolean;
  /** The id prefix; ids are the prefix and a zero-padded number. */
  idPrefix?: string;
}

/** Generates `count` made-up nominees. */
export function generateNominees({ count, seed, specialties, anchors = false, idPrefix = 'n' }: GenerateOptions): Nominee[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  // Zipf-like: the first surnames come up far more often than the last.
  const surname = () => SURNAMES[Math.min(SURNAMES.length - 1, Math.floor(SURNAMES.length * random() ** 1.3))];
  const specialtyPool = count >= 1000 ? [...specialties, ...specialties, ...specialties, ...EXTRA_SPECIALTIES] : specialties;
  const kinds = specialties.some((specialty) => /dent|odont/i.test(specialty)) ? DENTAL_PRACTICE_KINDS : PRACTICE_KINDS;
  // Texts are joined rather than added piece by piece: V8 keeps an added text as a tree of its pieces until
  // it is first read whole, then keeps both, which costs a list of a million names some tens of megabytes.
  const practices = Array.from({ length: Math.max(3, Math.ceil(count / 8)) }, () => {
    const city = pick(CITIES);
    return { city, practice: [random() < 0.6 ? city : surname(), pick(kinds)].join(' ') };
  });
  const width = String(count).length;
  // Each nominee is made once, in its final shape: a national list is not built twice over.
  const nominees: Nominee[] = [];
  const nextId = () => `${idPrefix}${String(nominees.length + 1).padStart(width, '0')}`;
  if (anchors) for (const anchor of ANCHORS.slice(0, count)) nominees.push({ id: nextId(), ...anchor });
  while (nominees.length < count) {
    const first = pick(FIRST_NAMES);
    const middle = random() < 0.15 ? ` ${String.fromCharCode(65 + Math.floor(random() * 26))}.` : '';
    const last = surname();
    const second = random() < 0.08 ? surname() : last;
    const { city, practice } = pick(practices);
    const name = [first, middle, ' ', last, second === last ? '' : `-${second}`].join('');
    nominees.push({ id: nextId(), name, specialty: pick(specialtyPool), city, practice });
  }
  return nominees;
}
