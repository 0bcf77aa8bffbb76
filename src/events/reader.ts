import type { Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
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

function toEvent(row: Omit<Selectable<EventsTable>, 'workspace_id'>): Event {
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
 * inclusive, oldest first: what one webhook delivery carries.
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
  const rows = await select.orderBy('id').execute();
  return rows.map(toEvent);
}

/** A page of the workspace's log; `since` and `before` are exclusive bounds. */
export async function readEvents(
  db: Database,
  workspaceId: string,
  query: EventQuery,
): Promise<EventPage> {
  const order = query.order ?? 'asc';
  const limit = query.limit ?? EVENT_PAGE_DEFAULT;
  let select = db.selectFrom('events').select(columns).where('workspace_id', '=', workspaceId);
  if (query.since !== undefined) select = select.where('id', '>', query.since);
  if (query.before !== undefined) select = select.where('id', '<', query.before);
  if (query.type !== undefined && query.type.length > 0)
    select = select.where('type', 'in', query.type);
  if (query.batchId !== undefined) select = select.where('batch_id', '=', query.batchId);
  if (query.cause !== undefined) select = select.where('cause', '=', query.cause);
  const rows = await select
    .orderBy('id', order)
    .limit(limit + 1)
    .execute();
  const hasMore = rows.length > limit;
  const events = rows.slice(0, limit).map(toEvent);
  const last = events.at(-1)?.id ?? null;
  const fallback = order === 'asc' ? (query.since ?? null) : null;
  return { events, nextCursor: last ?? fallback, hasMore };
}
