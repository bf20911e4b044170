import type { ColumnType, Insertable, Selectable } from 'kysely';

/**
 * `console_credentials`: one row a passkey an operator created (WebAuthn), with what a sign-in
 * checks its answer against: the public key and the signature counter. The private key never
 * leaves the operator's authenticator.
 */
export interface ConsoleCredentialsTable {
  /** The credential's id, base64url, as the authenticator names it in every sign-in. */
  id: string;
  /** The operator's address in lower case (operators.yaml). */
  operator: string;
  /** The WebAuthn user handle the passkey was made for, base64url: random, one per operator, reused for each of their passkeys. */
  user_handle: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter as last seen (0 for passkeys that keep none); a bigint, which PostgreSQL reads back as text. */
  counter: ColumnType<number | string, number, number>;
  /** How the browser said the authenticator is reached (JSON list: internal, hybrid, usb…); NULL when it did not say. */
  transports: string | null;
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  device_type: string;
  /** 1 when the passkey is backed up (synced), else 0. */
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

/** A stored passkey. */
export type ConsoleCredentialRow = Selectable<ConsoleCredentialsTable>;
/** A passkey to store. */
export type NewConsoleCredential = Insertable<ConsoleCredentialsTable>;
