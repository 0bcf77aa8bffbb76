import { setTimeout as sleep } from 'node:timers/promises';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { EVENT_PAGE_DEFAULT, type Event, type EventPage, type EventQuery } from './schemas.js';
import type { EventsTable } from './tables.js';

const columns = [
  'id',
  'occurred_at',
  'type',
  'resource_kind',
  'resource_id',
  'actor',
  'changes',
  'batch_id',
  'cause',
] as const;

type EventRow = Pick<Selectable<EventsTable>, (typeof columns)[number]>;

function toEvent(row: EventRow): Event {
  return {
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    type: row.type as Event['type'],
    resource: { kind: row.resource_kind, id: row.resource_id },
    actor: row.actor,
    changes: row.changes,
    batchId: row.batch_id,
    cause: row.cause as Event['cause'],
  };
}

/** The events of one type (and batch, or none) with ids from `fromId` to `toId` inclusive. */
export interface EventRange {
  workspaceId: string;
  type: string;
  batchId: string | null;
  fromId: string;
  toId: string;
}

/**
 * The events of several ranges in one query, each range's in the log's
 * order: what webhook deliveries carry (the ids of one delivery come from
 * one transaction, so they increase with it). Index i of the answer holds
 * range i's events.
 */
export async function readEventRanges(
  db: Database,
  ranges: readonly EventRange[],
): Promise<Event[][]> {
  if (ranges.length === 0) return [];
  const { rows } = await sql<EventRow & { range: number }>`
    select range.ordinal::int as range, ${sql.join(columns.map((column) => sql.ref(`found.${column}`)))}
    from unnest(
      ${ranges.map((range) => range.workspaceId)}::uuid[],
      ${ranges.map((range) => range.type)}::text[],
      ${ranges.map((range) => range.batchId)}::uuid[],
      ${ranges.map((range) => range.fromId)}::uuid[],
      ${ranges.map((range) => range.toId)}::uuid[]
    ) with ordinality as range (workspace_id, type, batch_id, from_id, to_id, ordinal)
    cross join lateral (
      select events.*, events.xid as log_xid, events.position as log_position from events
      where events.id between range.from_id and range.to_id
        and events.workspace_id = range.workspace_id and events.type = range.type
        and events.batch_id is not distinct from range.batch_id
    ) as found
    order by range.ordinal, found.log_xid, found.log_position`.execute(db);
  const answer: Event[][] = ranges.map(() => []);
  for (const row of rows) answer[row.range - 1]?.push(toEvent(row));
  return answer;
}

/** Where an event stands in the log: its transaction's id, then its position. */
export interface Place {
  xid: string;
  position: number;
}

/** The place of an event of the workspace; 400 `invalid_cursor` for any other id. */
export async function placeOf(db: Database, workspaceId: string, eventId: string): Promise<Place> {
  const row = await db
    .selectFrom('events')
    .select([sql<string>`xid::text`.as('xid'), 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (row === undefined) {
    throw badRequest('invalid_cursor', 'The cursor is not an event of this workspace', {
      cursor: eventId,
    });
  }
  return row;
}

/**
 * How long a read waits, at most, for the transactions that hold back events
 * already committed in the workspace (see `readEvents`): long enough that a
 * client sees its own write at once, bounded so that a long transaction
 * does not stall every reader.
 */
export const SETTLE_WAIT_MS = 1000;
const SETTLE_POLL_MS = 2;

/**
 * The log's horizon for one statement: the oldest transaction still running
 * (in the statement's snapshot) that may write to this database, else the
 * snapshot's next transaction id. A transaction that runs in another
 * database of the server (as `pg_stat_activity` shows it) cannot add an
 * event here and does not hold the log back; one not shown there (ended
 * since, prepared, or hidden for lack of privilege) counts, to be safe.
 */
const horizon = sql<string>`coalesce(
  (select min(running) from pg_snapshot_xip(pg_current_snapshot()) as running
    where not exists (
      select 1 from pg_stat_activity as activity
      where activity.backend_xid = running::xid
        and activity.datid <> (select oid from pg_database where datname = current_database()))),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/** Events of transactions older than every transaction that may still add one. */
const settled = sql<boolean>`xid < ${horizon}`;

/**
 * Waits (at most `waitMs`) until the events already committed in the
 * workspace are settled; events of transactions that commit meanwhile are
 * not waited for.
 */
async function awaitSettled(db: Database, workspaceId: string, waitMs: number): Promise<void> {
  const { rows } = await sql<{ newest: string | null }>`
    select max(xid)::text as newest from events
    where workspace_id = ${workspaceId} and not ${settled}`.execute(db);
  const newest = rows[0]?.newest ?? null;
  if (newest === null) return;
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await sleep(SETTLE_POLL_MS);
    const { rows: done } = await sql<{ done: boolean }>`
      select ${horizon} > ${newest}::xid8 as done`.execute(db);
    if (done[0]?.done === true) return;
  }
}

/** The log's filters, as `GET /workspaces/{workspaceId}/events` takes them. */
export type EventFilters = Pick<EventQuery, 'type' | 'batchId' | 'cause'>;

/**
 * Whether an event passes the filters: the same test as the query's `where`
 * in `readPlaced`, for events a shared reader has already read unfiltered.
 */
export function passes(event: Event, filters: EventFilters): boolean {
  if (filters.type !== undefined && filters.type.length > 0 && !filters.type.includes(event.type))
    return false;
  if (filters.batchId !== undefined && event.batchId !== filters.batchId) return false;
  if (filters.cause !== undefined && event.cause !== filters.cause) return false;
  return true;
}

/** Orders two places of the log (negative: `a` comes first). */
export function comparePlaces(a: Place, b: Place): number {
  const byXid = BigInt(a.xid) - BigInt(b.xid);
  if (byXid !== 0n) return byXid < 0n ? -1 : 1;
  return Math.sign(Number(a.position) - Number(b.position));
}

/** An event with its place in the log. */
export interface PlacedEvent {
  event: Event;
  place: Place;
}

/** Bounds and order of one page; `since` and `before` are exclusive. */
export interface PageBounds {
  since?: Place;
  before?: Place;
  order: 'asc' | 'desc';
  limit: number;
}

/**
 * A page of the workspace's log between places, with each event's place.
 *
 * The log's order is (writing transaction's id, position): writers take no
 * lock, and a transaction's id is fixed before it writes its first event.
 * A page shows only events of transactions older than every transaction
 * still running that may write here (the horizon above, PostgreSQL's
 * `pg_snapshot_xmin` narrowed to this database): such a transaction can no
 * longer add an event, and every event added later sorts after them, so a
 * reader that pages with `since` never skips one that commits late.
 */
export async function readPlaced(
  db: Database,
  workspaceId: string,
  filters: EventFilters,
  bounds: PageBounds,
  settleWaitMs = SETTLE_WAIT_MS,
): Promise<{ events: PlacedEvent[]; hasMore: boolean }> {
  const { since, before, order, limit } = bounds;
  await awaitSettled(db, workspaceId, settleWaitMs);
  let select = db
    .selectFrom('events')
    .select([...columns, sql<string>`xid::text`.as('log_xid'), 'position'])
    .where('workspace_id', '=', workspaceId)
    .where(settled);
  if (since !== undefined)
    select = select.where(
      sql<boolean>`(xid, position) > (${since.xid}::xid8, ${since.position}::bigint)`,
    );
  if (before !== undefined)
    select = select.where(
      sql<boolean>`(xid, position) < (${before.xid}::xid8, ${before.position}::bigint)`,
    );
  if (filters.type !== undefined && filters.type.length > 0)
    select = select.where('type', 'in', filters.type);
  if (filters.batchId !== undefined) select = select.where('batch_id', '=', filters.batchId);
  if (filters.cause !== undefined) select = select.where('cause', '=', filters.cause);
  const rows = await select
    .orderBy('xid', order)
    .orderBy('position', order)
    .limit(limit + 1)
    .execute();
  return {
    events: rows.slice(0, limit).map((row) => ({
      event: toEvent(row),
      place: { xid: row.log_xid, position: row.position },
    })),
    hasMore: rows.length > limit,
  };
}

/** A page of the workspace's log (see `readPlaced`); `since` and `before` are event ids. */
export async function readEvents(
  db: Database,
  workspaceId: string,
  query: EventQuery,
  settleWaitMs = SETTLE_WAIT_MS,
): Promise<EventPage> {
  const order = query.order ?? 'asc';
  const limit = query.limit ?? EVENT_PAGE_DEFAULT;
  const since = query.since === undefined ? undefined : await placeOf(db, workspaceId, query.since);
  const before =
    query.before === undefined ? undefined : await placeOf(db, workspaceId, query.before);
  const page = await readPlaced(
    db,
    workspaceId,
    query,
    { since, before, order, limit },
    settleWaitMs,
  );
  const events = page.events.map((placed) => placed.event);
  const last = events.at(-1)?.id ?? null;
  const fallback = order === 'asc' ? (query.since ?? null) : null;
  return { events, nextCursor: last ?? fallback, hasMore: page.hasMore };
}
