import type { Insertable, Selectable } from 'kysely';

/**
 * `link_opens`: when each personal link was first and last opened. Keyed by a SHA-256 of the
 * secret, so the table names no link; opening never uses a link up (mail scanners open them too).
 */
export interface LinkOpensTable {
  project_id: string;
  /** Hex SHA-256 of the secret. */
  secret_hash: string;
  first_opened_at: string;
  last_opened_at: string;
  opens: number;
}

/** A stored link opening. */
export type LinkOpenRow = Selectable<LinkOpensTable>;
/** A link opening to store. */
export type NewLinkOpen = Insertable<LinkOpensTable>;
