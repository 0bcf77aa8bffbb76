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

/**
 * The events of one type (and batch, or none) with ids from `fromId` to `toId`
 * inclusive, in the log's order: what one webhook delivery carries (the ids
 * of one delivery come from one transaction, so they increase with it).
 */
export async function readEventRange(
  db: Database,
  workspaceId: string,
  range: { type: string; batchId: string | null; fromId: string; toId: string },
): Promise<Event[]> {
  let select = db
    .selectFrom('events')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', range.type)
    .where('id', '>=', range.fromId)
    .where('id', '<=', range.toId);
  select =
    range.batchId === null
      ? select.where('batch_id', 'is', null)
      : select.where('batch_id', '=', range.batchId);
  const rows = await select.orderBy('xid').orderBy('position').execute();
  return rows.map(toEvent);
}

/** Where an event stands in the log: its transaction's id, then its position. */
interface Place {
  xid: string;
  position: number;
}

async function placeOf(db: Database, workspaceId: string, eventId: string): Promise<Place> {
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
 * How long a read waits for transactions that committed events here but
 * are not yet settled (an older transaction is still running) to settle:
 * long enough that a client sees its own write at once, short enough that
 * a long transaction elsewhere does not stall every reader.
 */
const SETTLE_WAIT_MS = 100;
const SETTLE_POLL_MS = 2;

/** Events of transactions older than every transaction still running. */
const settled = sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * Waits (a bounded time) until the events already committed in the
 * workspace are settled; events of transactions that commit meanwhile are
 * not waited for.
 */
async function awaitSettled(db: Database, workspaceId: string): Promise<void> {
  const { rows } = await sql<{ newest: string | null }>`
    select max(xid)::text as newest from events
    where workspace_id = ${workspaceId} and not ${settled}`.execute(db);
  const newest = rows[0]?.newest ?? null;
  if (newest === null) return;
  const deadline = Date.now() + SETTLE_WAIT_MS;
  while (Date.now() < deadline) {
    const { rows: horizon } = await sql<{ done: boolean }>`
      select pg_snapshot_xmin(pg_current_snapshot()) > ${newest}::xid8 as done`.execute(db);
    if (horizon[0]?.done === true) return;
    await sleep(SETTLE_POLL_MS);
  }
}

/**
 * A page of the workspace's log; `since` and `before` are exclusive bounds.
 *
 * The log's order is (writing transaction's id, position): writers take no
 * lock, and a transaction's id is fixed before it writes its first event.
 * A page shows only events of transactions older than every transaction
 * still running (`pg_snapshot_xmin`): such a transaction can no longer add
 * an event, and every event added later sorts after them, so a reader that
 * pages with `since` never skips one that commits late.
 */
export async function readEvents(
  db: Database,
  workspaceId: string,
  query: EventQuery,
): Promise<EventPage> {
  const order = query.order ?? 'asc';
  const limit = query.limit ?? EVENT_PAGE_DEFAULT;
  const since = query.since === undefined ? undefined : await placeOf(db, workspaceId, query.since);
  const before =
    query.before === undefined ? undefined : await placeOf(db, workspaceId, query.before);
  await awaitSettled(db, workspaceId);
  let select = db
    .selectFrom('events')
    .select(columns)
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
  if (query.type !== undefined && query.type.length > 0)
    select = select.where('type', 'in', query.type);
  if (query.batchId !== undefined) select = select.where('batch_id', '=', query.batchId);
  if (query.cause !== undefined) select = select.where('cause', '=', query.cause);
  const rows = await select
    .orderBy('xid', order)
    .orderBy('position', order)
    .limit(limit + 1)
    .execute();
  const hasMore = rows.length > limit;
  const events = rows.slice(0, limit).map(toEvent);
  const last = events.at(-1)?.id ?? null;
  const fallback = order === 'asc' ? (query.since ?? null) : null;
  return { events, nextCursor: last ?? fallback, hasMore };
}
