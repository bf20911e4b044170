import type { BallotsTable, AnswersTable, NominationsTable, WriteInsTable, UploadsTable } from './ballots.table.ts';
import type { ReservationsTable } from './reservations.table.ts';
import type { TileClaimsTable } from './tile-claims.table.ts';
import type { IdempotencyKeysTable } from './idempotency-keys.table.ts';
import type { RateLimitsTable } from './rate-limits.table.ts';
import type { WriteInDecisionsTable } from './write-in-decisions.table.ts';
import type { ReservationDecisionsTable } from './reservation-decisions.table.ts';
import type { AuditLogTable } from './audit-log.table.ts';
import type { RefusedBallotsTable } from './refused-ballots.table.ts';
import type { LinkOpensTable } from './link-opens.table.ts';
import type { BallotPseudonymsTable } from './ballot-pseudonyms.table.ts';
import type { BallotExclusionsTable } from './ballot-exclusions.table.ts';
import type { MailMessagesTable } from './mail-messages.table.ts';
import type { MailRecipientsTable } from './mail-recipients.table.ts';
import type { SendRunsTable } from './send-runs.table.ts';
import type { VerificationCodesTable } from './verification-codes.table.ts';
import type { PeopleSourcesTable, PeopleTable } from './people.table.ts';

/** Every table of the survey API's database, by name. */
export interface Database {
  ballots: BallotsTable;
  answers: AnswersTable;
  nominations: NominationsTable;
  write_ins: WriteInsTable;
  reservations: ReservationsTable;
  tile_claims: TileClaimsTable;
  uploads: UploadsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limits: RateLimitsTable;
  write_in_decisions: WriteInDecisionsTable;
  reservation_decisions: ReservationDecisionsTable;
  audit_log: AuditLogTable;
  refused_ballots: RefusedBallotsTable;
  link_opens: LinkOpensTable;
  ballot_pseudonyms: BallotPseudonymsTable;
  ballot_exclusions: BallotExclusionsTable;
  mail_messages: MailMessagesTable;
  mail_recipients: MailRecipientsTable;
  send_runs: SendRunsTable;
  verification_codes: VerificationCodesTable;
  people: PeopleTable;
  people_sources: PeopleSourcesTable;
}
