import type { Operator, OperatorRole } from './operators.struct.ts';

// What the middleware hands a console page in `Astro.locals.console`: plain data, so that pages
// and components read it without reaching into the server.

/** A signed-in operator's session, as a page shows it. */
export interface ConsoleSessionView {
  readonly id: string;
  readonly createdAt: string;
  readonly lastSeenAt: string;
  readonly reauthenticatedAt: string;
}

/** A request of a signed-in operator: who they are now (operators.yaml as it is), their session, and its CSRF token for every form. */
export interface ConsoleVisit {
  readonly operator: Operator;
  readonly session: ConsoleSessionView;
  readonly csrf: string;
}

/**
 * The console as a request finds it: open (with the operator, when one is signed in), or shut
 * to everyone, with the words to say why (a broken operators file, a wrong address).
 */
export type ConsoleLocals = { readonly open: true; readonly visit?: ConsoleVisit } | { readonly open: false; readonly why: string };

/** The name of the form field and request header that carry the session's CSRF token. */
export const CSRF_FIELD = 'csrf';
export const CSRF_HEADER = 'X-Console-CSRF';

/** One survey on the console's first page: where it stands and its figures. */
export interface SurveyOverviewRow {
  readonly slug: string;
  readonly title: string;
  readonly role: OperatorRole;
  /** Taking ballots (not past its expiration_date). */
  readonly open: boolean;
  /** The last moment it takes ballots (ISO 8601 UTC); absent when it never closes. */
  readonly closesAt?: string;
  /** `results: sealed: true`: no standings before the close. */
  readonly sealed: boolean;
  /** Its results folder is written (`results publish`). */
  readonly published: boolean;
  /** Every ballot stored (the demo link's and replaced ones included). */
  readonly ballots: number;
  /** People on the roster, those whose personal link has a current ballot, and the rest. */
  readonly invited: number;
  readonly responded: number;
  readonly pending: number;
}

/** One survey's participation, for its console page. */
export interface SurveyFigures extends SurveyOverviewRow {
  readonly perDay: ReadonlyArray<{ readonly day: string; readonly ballots: number }>;
  readonly messages: ReadonlyArray<{ readonly kind: string; readonly status: string; readonly messages: number }>;
  readonly mailStopped: { readonly unsubscribed: number; readonly bounced: number; readonly complained: number };
  readonly refused: ReadonlyArray<{ readonly reason: string; readonly ballots: number; readonly admitted: number }>;
  /** The invited people by a roster column. */
  readonly roster: RosterBreakdown;
  /** The latest look for fraud signals, or null before the first. */
  readonly signals: SignalRunView | null;
}

/** The name of the address's parameter that picks the roster column of a survey's page: `?by=specialty`. */
export const ROSTER_COLUMN_PARAM = 'by';

/** The invited people of a survey by one roster column, as its page shows them. */
export interface RosterBreakdown {
  /** The columns an operator may pick, in the roster's order: those that say nothing of who one person is. */
  readonly columns: readonly string[];
  /** The column shown: the one asked for, else the first; absent when the roster has none. */
  readonly column?: string;
  /** True when the address asked for a column the roster does not have: the page says so, and shows the first. */
  readonly unknownColumn: boolean;
  /** The column's largest groups, most people first: each value ('' for none), its invited people and respondents. */
  readonly groups: ReadonlyArray<{ readonly value: string; readonly invited: number; readonly responded: number }>;
  /** The groups past those shown, as one row: how many values, and their people. */
  readonly others?: { readonly values: number; readonly invited: number; readonly responded: number };
}

/** The latest run of `results signals` on a survey: when, by whom, and what it found. */
export interface SignalRunView {
  readonly at: string;
  readonly actor: string;
  /** Through what: `command line`. */
  readonly via: string;
  /** The ballots it read (demo ballots left out), and those stored since it began. */
  readonly ballotsRead: number;
  readonly arrivedSince: number;
  readonly clusters: number;
  readonly ballotsNamed: number;
  /** Each kind's clusters and the distinct ballots they name, in the detectors' order. */
  readonly kinds: ReadonlyArray<{ readonly kind: string; readonly clusters: number; readonly ballotsNamed: number }>;
  /** The thresholds it ran with, as option and value (`window`, `10`). */
  readonly thresholds: ReadonlyArray<readonly [string, string]>;
}

/** One of an operator's open sessions, for their sessions page. */
export interface SessionRow {
  readonly id: string;
  readonly createdAt: string;
  readonly lastSeenAt: string;
  readonly agent: string | null;
  /** The session this page was asked in. */
  readonly current: boolean;
}

/** One of an operator's passkeys, for their sessions page. */
export interface PasskeyRow {
  readonly id: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** Synced between devices (a passkey manager), or held by one authenticator. */
  readonly synced: boolean;
}

/** An operator an owner may manage, for the operators page. */
export interface ManagedOperatorRow {
  readonly email: string;
  readonly name: string;
  readonly roles: Readonly<Record<string, OperatorRole>>;
  readonly passkeys: number;
  readonly lastUsedAt: string | null;
  readonly openSessions: number;
}

/** What an enrolment link's page shows: the button to make a passkey for its operator, or why the link does not work. */
export type EnrolPageState =
  | { readonly state: 'valid'; readonly name: string; readonly expiresAt: string }
  | { readonly state: 'used' | 'expired' | 'unknown' };

/** One entry of an audit trail, as its console page shows it: never a voter's answers, which the trail does not hold. */
export interface AuditEntryView {
  readonly seq: number;
  readonly at: string;
  readonly actor: string;
  readonly actorEmail: string | null;
  readonly role: string | null;
  /** Through what: `command line`, `console` or `mail link`. */
  readonly via: string;
  readonly action: string;
  readonly subject: string | null;
  readonly reason: string | null;
  /** What changed, as name and value pairs in words. */
  readonly details: ReadonlyArray<readonly [string, string]>;
}

/** A page of an audit trail: a survey's, or the operators' own (project `*`). */
export interface AuditPageView {
  /** The heading: the survey's title, or "Operators". */
  readonly title: string;
  /** The page's own address, without a query. */
  readonly path: string;
  /** The page's entries, newest first. */
  readonly entries: readonly AuditEntryView[];
  /** What the filters offer: the actors and actions the trail holds. */
  readonly actors: readonly string[];
  readonly actions: readonly string[];
  /** The filters the page was asked with. */
  readonly actor?: string;
  readonly action?: string;
  /** The addresses of the newer and the older page, when there is one. */
  readonly newer?: string;
  readonly older?: string;
  /** The answer of "Check the chain", when it was pressed: what `audit --verify` prints, or why it was not checked. */
  readonly check?: { readonly ok: boolean; readonly message: string };
}

/**
 * One refused ballot, as its console page shows it to a role. A reviewer judges it by its
 * reason, time, problems, link and what it holds; the voter's name, address and answers come
 * only to a manager or an owner. The link's secret is never shown.
 */
export interface RefusedBallotView {
  readonly id: string;
  readonly receivedAt: string;
  /** The refusal's error code (`expired`, `invalid_ballot`…), which the page puts in words. */
  readonly reason: string;
  /** What the rule found, as the voter was told it: one sentence a problem, naming the field, never its answer. */
  readonly problems: readonly string[];
  /** The link it came by; `personal` when it carried a secret, known or not. */
  readonly link: 'public' | 'personal' | 'demo';
  /** For a ballot sent after the close: how long after, in milliseconds. */
  readonly afterClose?: number;
  /** What it would count: its filled nomination slots and its write-ins; and its files, which were not kept. */
  readonly nominations: number;
  readonly writeIns: number;
  readonly files: number;
  /** The voter as the ballot names them, and every answer by its field's label: a manager's or an owner's page only. */
  readonly voter?: {
    readonly name: string;
    readonly email: string;
    readonly answers: ReadonlyArray<readonly [label: string, value: string]>;
  };
  /** Who admitted it, when, why, and the ballot it became; absent while it waits. */
  readonly admitted?: { readonly at: string; readonly by: string; readonly why: string; readonly ballotId: string };
}

/** A page of a survey's refused ballots, newest first. */
export interface RefusedPageView {
  readonly slug: string;
  readonly title: string;
  /** The page's own address, without a query. */
  readonly path: string;
  /** The operator may admit (reviewer and up): the page shows the Admit control. */
  readonly mayAdmit: boolean;
  /** The operator sees voters' names and answers (manager and up). */
  readonly seesVoters: boolean;
  /** Every refused ballot of the survey, and how many of them were admitted. */
  readonly refused: number;
  readonly admitted: number;
  readonly ballots: readonly RefusedBallotView[];
  /** The addresses of the newer and the older page, when there is one. */
  readonly newer?: string;
  readonly older?: string;
  /** The page's place in the list (`before=…`, `after=…`, or empty for the newest), which its forms carry so that an act comes back to it. */
  readonly place: string;
  /** The ballot the last act admitted, when the page was asked after it. */
  readonly justAdmitted?: string;
  /** The longest reason an admission takes. */
  readonly reasonMax: number;
}

/** A ballot a signal names, as the signals page shows it: its voter's name only to a role that may see voters. */
export interface SignalBallotView {
  readonly id: string;
  /** When the API received it; absent for a ballot gone since the look (purged). */
  readonly receivedAt?: string;
  /** The voter's name as the ballot gives it (manager and up); '' when it gives none. */
  readonly voter?: string;
  /** Its operator's exclusion, while it is excluded. */
  readonly excluded?: { readonly by: string; readonly at: string; readonly reason: string };
}

/** One cluster of the latest look, with a page of the ballots it names. */
export interface SignalClusterView {
  readonly position: number;
  readonly kind: string;
  readonly strength: 'high' | 'medium' | 'low';
  readonly score: number;
  readonly evidence: string;
  /** How many ballots it names in all. */
  readonly ballots: number;
  readonly shown: readonly SignalBallotView[];
  /** The address of the cluster's own page, when it names more ballots than the list shows. */
  readonly all?: string;
}

/** The signals page: the latest look's clusters (or one cluster's ballots), paged. */
export interface SignalsPageView {
  readonly slug: string;
  readonly title: string;
  /** The page's own address, without a query. */
  readonly path: string;
  /** The command that looks again. */
  readonly command: string;
  /** The latest look; null before the first. */
  readonly run: {
    readonly at: string;
    readonly actor: string;
    readonly ballotsRead: number;
    readonly arrivedSince: number;
    readonly clusters: number;
    readonly ballotsNamed: number;
    /** False for a look recorded before looks kept their clusters. */
    readonly kept: boolean;
  } | null;
  /** The operator sees voters' names (manager and up). */
  readonly seesVoters: boolean;
  readonly clusters: readonly SignalClusterView[];
  /** When the page shows one cluster's ballots: its place, and the list's address to go back to. */
  readonly cluster?: number;
  readonly list?: string;
  /** The addresses of the previous and the next page, when there is one. */
  readonly previous?: string;
  readonly next?: string;
  /** The page's place (`cluster=…&after=…`, or empty for the first page of clusters), which its forms carry so that an act comes back to it. */
  readonly place: string;
  /** The ballot and the act just done, when the page was asked after it. */
  readonly justDone?: { readonly id: string; readonly act: 'excluded' | 'restored' };
  /** The longest reason an act takes. */
  readonly reasonMax: number;
}

/** One ballot a write-in group came from: when, as which spelling, whether a decision made before it counts it, and the voter (a manager's or an owner's page only). */
interface WriteInBallotView {
  readonly receivedAt: string;
  readonly spelling: string;
  readonly byItself: boolean;
  readonly voter?: string;
}

/** A nominee the search found for a group, with its count in the group's sub-category now and with the group attached. */
export interface WriteInMatchView {
  readonly id: string;
  readonly name: string;
  /** Specialty, practice and city, as the ballot's suggestions show them. */
  readonly detail: string;
  readonly now: number;
  readonly with: number;
}

/** A group of write-ins: one folded name in one sub-category. */
export interface WriteInGroupView {
  /** Its anchor and address (`group=…`). */
  readonly id: string;
  /** `Group / Sub-category`, as `writeins resolve --category` takes it. */
  readonly category: string;
  readonly subcategory: string;
  /** The spelling most voters used, which the acts name the group by. */
  readonly name: string;
  readonly count: number;
  readonly spellings: ReadonlyArray<{ readonly name: string; readonly count: number }>;
  /** The decision in force: attached to a nominee (listed or new), or rejected; absent while the group waits. */
  readonly decision?: {
    readonly action: 'merge' | 'new' | 'reject';
    readonly nomineeId?: string;
    readonly nomineeName?: string;
    readonly by: string;
    readonly at: string;
    readonly why?: string;
  };
  /** Write-ins received after the decision, which it counts by itself. */
  readonly afterDecision: number;
  /** Its newest ballots (at most ten). */
  readonly ballots: readonly WriteInBallotView[];
  /** The nominee search, when the page was asked for it on this group. */
  readonly search?: { readonly query: string; readonly matches: readonly WriteInMatchView[] };
}

/** A page of a survey's write-in queue: the groups waiting for a decision first. */
export interface WriteInsPageView {
  readonly slug: string;
  readonly title: string;
  readonly path: string;
  /** The operator may attach and undo (reviewer and up): the page shows those controls. */
  readonly mayDecide: boolean;
  /** The operator sees voters' names (manager and up). */
  readonly seesVoters: boolean;
  /** Every group and write-in of the survey, and those waiting. */
  readonly groupCount: number;
  readonly waitingGroups: number;
  readonly writeIns: number;
  readonly waitingWriteIns: number;
  readonly groups: readonly WriteInGroupView[];
  /** The place of this page's first group in the queue (from 1), and the addresses of the pages before and after. */
  readonly first: number;
  readonly previous?: string;
  readonly next?: string;
  /** What the last act did, said at the top of the page. */
  readonly done?: string;
  /** The longest reason an act takes, and the longest name of a new nominee. */
  readonly reasonMax: number;
  readonly nameMax: number;
}

/** A send run started in the console, as the mail page shows it: who started it, its rate, and how far it is. */
export interface MailRunView {
  readonly id: string;
  readonly campaign: 'invitation' | 'reminder';
  /** Messages a minute. */
  readonly rate: number;
  readonly startedBy: string;
  readonly startedAt: string;
  readonly state: 'running' | 'done' | 'stopped';
  /** The people it chose when it planned; null until it has. */
  readonly total: number | null;
  readonly sent: number;
  /** Refused to the last try, or bounced. */
  readonly failed: number;
  /** In flight when a process stopped: they may or may not have gone, and are not sent again. */
  readonly unknown: number;
  /** Chosen and not yet handed over; null until it has planned. */
  readonly left: number | null;
  readonly skipped: ReadonlyArray<readonly [reason: string, count: number]>;
  readonly endedAt?: string;
  /** Its last word once it has ended: what it did, or why it stopped. */
  readonly outcome?: string;
}

/** One message on the mail page's table of deliveries. */
export interface MailMessageView {
  readonly messageId: string;
  readonly recipient: string;
  readonly kind: string;
  readonly status: string;
  readonly createdAt: string;
  readonly sentAt: string | null;
  readonly detail: string | null;
}

/** One person's invitation or reminder as it will leave: rendered with the survey's templates. */
interface MailPreviewView {
  readonly campaign: 'invitation' | 'reminder';
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A survey's mail page (/console/{slug}/mail/), for a manager or an owner. */
export interface MailPageView {
  readonly slug: string;
  readonly title: string;
  readonly path: string;
  /** The survey's latest send run started in the console, if any. */
  readonly run?: MailRunView;
  /** The survey has people with an address to mail. */
  readonly roster: number;
  /** The table's filters as asked (empty for all), and the choices each offers. */
  readonly filter: { readonly status: string; readonly kind: string };
  readonly statuses: readonly string[];
  readonly kinds: readonly string[];
  /** A page of the messages, newest first, and the address of the next (older) one. */
  readonly messages: readonly MailMessageView[];
  readonly older?: string;
  /** The first page of the table with the filters, when this is a later one. */
  readonly newest?: string;
  /** A preview asked for, or why there is none. */
  readonly preview?: MailPreviewView | { readonly campaign: 'invitation' | 'reminder'; readonly problem: string };
  /** The address the preview was asked for, to fill its box again. */
  readonly previewTo: string;
  /** A dry run asked for: whom it would mail and whom it would skip, and why; or why it cannot run. */
  readonly dryRun?:
    | { readonly campaign: 'invitation' | 'reminder'; readonly eligible: number; readonly skipped: ReadonlyArray<readonly [reason: string, count: number]> }
    | { readonly campaign: 'invitation' | 'reminder'; readonly problem: string };
  /** What the last bounce upload did, when the page was asked after one. */
  readonly imported?: { readonly reports: number; readonly bounced: number; readonly complained: number; readonly delayed: number; readonly unmatched: number };
  /** The survey is closed: reminders no longer go. */
  readonly closed: boolean;
  /** The rate a run is offered at, messages a minute, and the most it takes. */
  readonly rate: number;
  readonly rateMax: number;
  /** The most a bounce upload takes, in bytes. */
  readonly uploadLimit: number;
}

/** A count as the results page keeps it (`results_counts.summary`, JSON): the totals, the exclusions in words, each sub-category's leaders. */
export interface CountSummary {
  readonly ballots: number;
  readonly ballotsCounted: number;
  readonly ballotsReplaced: number;
  readonly votesCounted: number;
  /** Votes not counted, by reason, each with its explanation as `results tally` gives it; reasons with none left out. */
  readonly excluded: ReadonlyArray<{ readonly reason: string; readonly votes: number; readonly why: string }>;
  /** Votes counted and marked for review by a rule set to flag. */
  readonly flagged: ReadonlyArray<{ readonly reason: string; readonly votes: number; readonly why: string }>;
  readonly writeInsPending: number;
  readonly writeInsRejected: number;
  readonly subcategories: ReadonlyArray<{
    readonly group: string;
    readonly subcategory: string;
    readonly counted: number;
    readonly excluded: number;
    /** The nominees with a counted vote; the page shows the first LEADERS_SHOWN of them, the CSV every one. */
    readonly nominees: number;
    readonly leaders: ReadonlyArray<{
      readonly rank: number;
      readonly nomineeId: string;
      readonly name: string;
      readonly counted: number;
      /** Percent of the sub-category's counted votes (or points), to one decimal, as the CSV has it. */
      readonly share: string;
      readonly winner: boolean;
    }>;
  }>;
}

/** One count as the results page shows it. */
export interface CountView {
  readonly id: string;
  /** Why it ran: an owner's Count, a publication, or an early look. */
  readonly kind: 'count' | 'publish' | 'look';
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly actor: string;
  /** Ballots stored when it began, and stored since. */
  readonly ballotsStored: number;
  readonly arrivedSince: number;
  readonly summary: CountSummary;
  /** Its CSV to download, as `results tally --out` writes it; absent for a look. */
  readonly csv?: string;
}

/** One owner's request to unseal a survey early, as its page lists it. */
export interface UnsealRequestView {
  readonly id: string;
  readonly askedBy: string;
  readonly askedAt: string;
  readonly reason: string;
  readonly expiresAt: string;
  /** waiting (for another owner), approved (its look not yet had), looked, or expired unapproved. */
  readonly state: 'waiting' | 'approved' | 'looked' | 'expired';
  readonly approvedBy?: string;
  readonly approvedAt?: string;
  readonly lookedAt?: string;
  /** The viewer asked for it. */
  readonly own: boolean;
  /** The viewer may approve it: it waits, and they did not ask for it. */
  readonly mayApprove: boolean;
}

/** A survey's results page, for an owner. */
export interface ResultsPageView {
  readonly slug: string;
  readonly title: string;
  readonly path: string;
  /** Sealed and before its close: the page shows no count but an early look. */
  readonly sealed: boolean;
  /** The close in words (`31 December 2099 at 23:59 UTC`); absent when the survey never closes. */
  readonly closesIn?: string;
  /** Past its close: Publish is offered. */
  readonly closed: boolean;
  /** The last finished count (a Count or a publication), when not sealed. */
  readonly count?: CountView;
  /** A count or publication under way, or the last one that failed, when it is newer than the last finished one. */
  readonly running?: { readonly kind: 'count' | 'publish'; readonly startedAt: string; readonly actor: string };
  readonly failed?: { readonly kind: 'count' | 'publish'; readonly startedAt: string; readonly error: string };
  /** The early look this page shows its asker, once. */
  readonly look?: CountView;
  /** The viewer's approved request whose look is being counted, or whose count failed. */
  readonly lookPending?: { readonly requestId: string; readonly failed: boolean };
  readonly requests: readonly UnsealRequestView[];
  /** A request waits already: no other may be asked meanwhile. */
  readonly requestWaiting: boolean;
  /** The methodology, one sentence a rule, as `results methodology` writes it. */
  readonly methodology: readonly string[];
  /** Ballots operators took out of the count (`results exclude`, the signals page): the newest few, and how many in all. */
  readonly operatorExclusions: {
    readonly total: number;
    readonly rows: ReadonlyArray<{ readonly ballotId: string; readonly by: string; readonly at: string; readonly reason: string }>;
  };
  /** The folder as it is published now, when it is. */
  readonly published?: { readonly at: string; readonly ballots: number; readonly head: string; readonly folder: string; readonly download: string };
  /** The outcome of the act the page was asked after (`?done=`). */
  readonly done?: 'asked' | 'approved' | 'counted' | 'counting' | 'published' | 'publishing';
  readonly reasonMax: number;
}
