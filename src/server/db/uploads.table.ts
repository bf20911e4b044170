import type { Insertable, Selectable } from 'kysely';

/** `uploads`: files sent with ballots, stored under `id` in the uploads folder and never served publicly. */
export interface UploadsTable {
  /** The stored file's random name, e.g. `3f0c…e1.pdf`. */
  id: string;
  ballot_id: string;
  field: string;
  /** The name the voter's file had; for display only, never used as a path. */
  original_name: string;
  /** The type read from the file's first bytes. */
  content_type: string;
  size: number;
  created_at: string;
}

/** A stored upload. */
export type UploadRow = Selectable<UploadsTable>;
/** An upload to store. */
export type NewUpload = Insertable<UploadsTable>;
