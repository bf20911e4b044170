import type { Selectable } from 'kysely';

/**
 * `verification_codes`: one row per code mailed to a voter proving an address. The code itself
 * is never kept, only its keyed hash; wrong tries are counted on the latest code of an address.
 */
export interface VerificationCodesTable {
  id: string;
  project_id: string;
  /** The address the code went to, trimmed and in lower case. */
  email: string;
  /** For `verify: roster`, the personal secret of the invited person the address belongs to. */
  secret: string | null;
  code_hash: string;
  created_at: string;
  /** Fifteen minutes after `created_at`. */
  expires_at: string;
  /** Wrong codes typed for this address since this code was sent; at 5 every code is refused until a new one is sent. */
  wrong_tries: number;
  used_at: string | null;
}

/** A stored code. */
export type VerificationCodeRow = Selectable<VerificationCodesTable>;
