// Realistic ballots for the demo survey (surveys/top-doctors-demo), as multipart bodies:
// shared by the API tests and the ingest benchmark.

const FIRST = ['Evelyn', 'Rajesh', 'Amara', 'Luis', 'Hannah', 'Samuel', 'Mei', 'Tomasz', 'Ngozi', 'Ines'];
const LAST = ['Castellano', 'Venkataraman', 'Okafor', 'Ferreira', 'Weiss', 'Osei', 'Lin', 'Nowak', 'Adeyemi', 'Duarte'];
/** The demo survey's sample workplaces. */
export const PRACTICES = ['Northgate Family Clinic', 'Riverside Heart Institute', 'St. Luke Medical Group', 'Lakeside Pediatrics', 'Metro Ortho Partners'];
/** The demo survey's sub-categories, as [group, sub-category]. */
export const SUBCATEGORIES = [
  ['Primary Care', 'Family Medicine'],
  ['Primary Care', 'Internal Medicine'],
  ['Primary Care', 'Pediatrics'],
  ['Heart and Lungs', 'Cardiology'],
  ['Heart and Lungs', 'Pulmonology'],
  ['Surgery', 'General Surgery'],
  ['Surgery', 'Orthopedic Surgery'],
  ['Surgery', 'Neurosurgery'],
];

/** The id of the demo nominee number `n`. */
const nomineeId = (n) => `tdd-${String(n).padStart(4, '0')}`;

/**
 * A nominee of the demo's list (tdd-0001 … tdd-3000) for ballot `n`'s `i`-th sub-category: the
 * two slots draw from the list's two halves.
 * @param {number} n
 * @param {number} i
 * @param {1 | 2} slot
 */
const demoNominee = (n, i, slot) => (slot === 1 ? nomineeId(((n * 13 + i) % 1500) + 1) : nomineeId(((n * 17 + i + 1) % 1500) + 1501));

/**
 * The fields of a filled demo ballot, as [name, value] pairs: name, credential, licence,
 * email, practice, phone, a few nominations, one write-in, the affirmation.
 * @param {number} n a number that varies the ballot
 * @param {(n: number, i: number, slot: 1 | 2) => string} [nominee] the nominee of ballot n's i-th sub-category in a slot
 * @returns {Array<[string, string]>}
 */
export function demoBallotFields(n, nominee = demoNominee) {
  const first = FIRST[n % FIRST.length];
  const last = LAST[(n * 7) % LAST.length];
  const fields = [
    ['name-first', first],
    ['name-middle', ''],
    ['name-last', last],
    ['medical-credential', ['MD', 'DO', 'DPM'][n % 3]],
    ['medical-license', `MD-${100000 + n}`],
    ['email', `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.org`],
    ['phone', ''],
    ['medical-practice', PRACTICES[n % PRACTICES.length]],
  ];
  for (let i = 0; i < 4; i++) {
    const [group, sub] = SUBCATEGORIES[(n + i * 3) % SUBCATEGORIES.length];
    fields.push([`nominations[${group}][${sub}][1]`, nominee(n, i, 1)]);
    fields.push([`nominations[${group}][${sub}][2]`, nominee(n, i, 2)]);
  }
  fields.push(['writeins[0][name]', `Dr. ${FIRST[(n + 3) % FIRST.length]} ${LAST[(n + 5) % LAST.length]}`]);
  fields.push(['writeins[0][category]', 'Surgery / Neurosurgery']);
  fields.push(['affirm', 'on']);
  return fields;
}

/**
 * Encodes fields (and files) as a multipart/form-data body.
 * @param {Array<[string, string | { name: string, type: string, data: Uint8Array }]>} fields
 * @param {string} [boundary]
 */
export function multipart(fields, boundary = `----peervote${Math.random().toString(16).slice(2)}`) {
  const chunks = [];
  for (const [name, value] of fields) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type}\r\n\r\n`),
      );
      chunks.push(Buffer.from(value.data), Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
