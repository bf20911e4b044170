import { randomBytes } from 'node:crypto';

/** The millisecond of the last id made, and the counter within it. */
let lastMs = -1;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then random bits. Ids that grow with
 * time land at the end of every index keyed by them, so a stream of ballots keeps touching the
 * same few pages instead of scattering writes across the database. Within one millisecond the
 * 12 bits after the time count up from a random start (RFC 9562, method 1), so that the ids one
 * process makes sort in the order it made them: the audit trail is read in id order.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  if (now === lastMs && sequence < 0xfff) sequence++;
  else sequence = bytes.readUInt16BE(6) & 0x7ff;
  lastMs = now;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
