import { database } from '../db/database.ts';
import { ballotsReceived, latestSignalRun } from './console-views.repository.ts';
import { ballotFacts, keptBallots, keptClusters } from '../../results/signals/signal-runs.repository.ts';
import { strength } from '../../results/signals/signal-model.ts';
import { ADMIT_REASON_MAX } from '../../results/refused.ts';
import { voterFields } from '../../survey/people/voter.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import type { ConsoleVisit, SignalBallotView, SignalsPageView } from '../../survey/operators/console-views.ts';
import { surveyOfOperator } from './refused-page.ts';

// A survey's signals in the console (/console/{slug}/signals/): the clusters of the latest look
// `results signals` recorded, strongest first, each with the ballots it names, paged by keyset
// (clusters by their place in the look, a cluster's ballots by id); for a reviewer and up. The
// acts that exclude and restore a ballot are signals-acts.ts.

/** The clusters a page lists at once, and the ballots it shows of each. */
const CLUSTERS_PAGE = 20;
const BALLOTS_SHOWN = 10;
/** The ballots a cluster's own page shows at once. */
const BALLOTS_PAGE = 50;

/** A cluster's place in a look, as an address gives it. */
const POSITION = /^\d{1,9}$/;
/** A ballot id as an address or a path may give it: a UUIDv7 as the API writes it, or an id as a test or an import wrote it. Any other names no ballot. */
const BALLOT_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** True for text shaped as a ballot id; any other names no ballot, and is never looked up. */
export function isBallotId(text: string): boolean {
  return BALLOT_ID.test(text);
}

/** The address of a survey's signals page. */
export function signalsPath(slug: string): string {
  return `/console/${slug}/signals/`;
}

/** A page's place: one cluster's ballots (`cluster`, then `after` or `before` a ballot id), or the list of clusters (`after` or `before` a place). */
interface Place {
  cluster?: number;
  after?: string;
  before?: string;
}

/** A page's place from its address or a form's field; anything malformed is the first page of the list. */
export function signalsPlace(query: URLSearchParams): Place {
  const cluster = query.get('cluster') ?? '';
  const shape = POSITION.test(cluster) ? BALLOT_ID : POSITION;
  const at = (name: string) => {
    const value = query.get(name) ?? '';
    return shape.test(value) ? value : undefined;
  };
  const after = at('after');
  const before = after === undefined ? at('before') : undefined;
  return {
    ...(POSITION.test(cluster) ? { cluster: Number(cluster) } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(before !== undefined ? { before } : {}),
  };
}

/** A place as a query string, without the `?`. */
export function signalsQuery(place: Place): string {
  const query = new URLSearchParams();
  if (place.cluster !== undefined) query.set('cluster', String(place.cluster));
  if (place.after !== undefined) query.set('after', place.after);
  else if (place.before !== undefined) query.set('before', place.before);
  return query.toString();
}

/**
 * The signals page for an operator who may review signals (reviewer and up), as the address
 * asks for it; 'forbidden' for an auditor; undefined for a survey they have no role on, as for
 * one that does not exist.
 */
export async function signalsPage(visit: ConsoleVisit, slug: string, url: URL): Promise<SignalsPageView | 'forbidden' | undefined> {
  const found = surveyOfOperator(visit.operator, slug);
  if (!found) return undefined;
  const { survey } = found;
  if (!may(visit.operator, 'review-signals', survey.slug)) return 'forbidden';
  const { db } = await database();
  const projectId = survey.config.project_id;
  const path = signalsPath(survey.slug);
  const seesVoters = may(visit.operator, 'see-voters', survey.slug);
  const base = {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    path,
    command: `npm run results -- signals ${survey.slug}`,
    seesVoters,
    reasonMax: ADMIT_REASON_MAX,
  };
  const [run, stored] = await Promise.all([latestSignalRun(db, projectId), ballotsReceived(db, projectId)]);
  if (!run) return { ...base, run: null, clusters: [], place: '' };

  const place = signalsPlace(url.searchParams);
  const address = (at: Place) => {
    const query = signalsQuery(at);
    return query ? `${path}?${query}` : path;
  };
  const one = place.cluster;
  const clusters = await keptClusters(
    db,
    run.id,
    one !== undefined
      ? { only: one }
      : { ...(place.after !== undefined ? { after: Number(place.after) } : {}), ...(place.before !== undefined ? { before: Number(place.before) } : {}) },
    one !== undefined ? 1 : CLUSTERS_PAGE,
  );
  // A look recorded before looks kept their clusters has counts and no clusters.
  const kept = Number(run.clusters) === 0 || clusters.rows.length > 0 || (await keptClusters(db, run.id, {}, 1)).rows.length > 0;
  const pages = await Promise.all(
    clusters.rows.map((cluster) =>
      keptBallots(
        db,
        run.id,
        cluster.position,
        one !== undefined
          ? { ...(place.after !== undefined ? { after: place.after } : {}), ...(place.before !== undefined ? { before: place.before } : {}) }
          : {},
        one !== undefined ? BALLOTS_PAGE : BALLOTS_SHOWN,
      ),
    ),
  );
  const fields = voterFields(survey.config);
  const facts = await ballotFacts(db, projectId, [...new Set(pages.flatMap((page) => page.ids))], seesVoters ? fields.name : []);
  const ballotView = (id: string): SignalBallotView => {
    const answers = facts.names.get(id) ?? [];
    const name = fields.name
      .map((field) =>
        answers
          .filter((answer) => answer.field === field)
          .map((answer) => answer.value)
          .join(', '),
      )
      .filter(Boolean)
      .join(' ');
    const receivedAt = facts.received.get(id);
    const excluded = facts.excluded.get(id);
    return { id, ...(receivedAt ? { receivedAt } : {}), ...(seesVoters ? { voter: name } : {}), ...(excluded ? { excluded } : {}) };
  };
  const views = clusters.rows.map((cluster, i) => ({
    position: cluster.position,
    kind: cluster.kind,
    strength: strength(cluster.score),
    score: cluster.score,
    evidence: cluster.evidence,
    ballots: cluster.ballots,
    shown: pages[i].ids.map(ballotView),
    ...(one === undefined && cluster.ballots > pages[i].ids.length ? { all: address({ cluster: cluster.position }) } : {}),
  }));

  // The previous page exists when this one was asked after a place, or before one with more beyond; the next when more were read, or the page came back from it.
  let previous: string | undefined;
  let next: string | undefined;
  const keys = one !== undefined ? (pages[0]?.ids ?? []) : clusters.rows.map((cluster) => String(cluster.position));
  const more = one !== undefined ? (pages[0]?.more ?? false) : clusters.more;
  const first = keys[0];
  const last = keys.at(-1);
  const hasPrevious = place.before !== undefined ? more : place.after !== undefined;
  const hasNext = place.before !== undefined ? keys.length > 0 : more;
  if (hasPrevious) previous = first !== undefined ? address({ cluster: one, before: first }) : address({ cluster: one });
  if (hasNext && last !== undefined) next = address({ cluster: one, after: last });

  const excludedId = url.searchParams.get('excluded') ?? '';
  const restoredId = url.searchParams.get('restored') ?? '';
  const listed = views.flatMap((view) => view.shown);
  const justDone = listed.some((ballot) => ballot.id === excludedId && ballot.excluded)
    ? ({ id: excludedId, act: 'excluded' } as const)
    : listed.some((ballot) => ballot.id === restoredId && !ballot.excluded)
      ? ({ id: restoredId, act: 'restored' } as const)
      : undefined;
  return {
    ...base,
    run: {
      at: run.ran_at,
      actor: run.actor,
      ballotsRead: Number(run.ballots_read),
      arrivedSince: Math.max(0, stored - Number(run.ballots_stored)),
      clusters: Number(run.clusters),
      ballotsNamed: Number(run.ballots_named),
      kept,
    },
    clusters: views,
    ...(one !== undefined ? { cluster: one, list: path } : {}),
    ...(previous ? { previous } : {}),
    ...(next ? { next } : {}),
    place: signalsQuery(place),
    ...(justDone ? { justDone } : {}),
  };
}
