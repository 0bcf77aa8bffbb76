import type { Database } from '../db/schema.js';
import { EVENT_PAGE_DEFAULT, type EventPage, type EventQuery } from './schemas.js';
import type { Event } from './schemas.js';

/** A page of the workspace's log; `since` and `before` are exclusive bounds. */
export async function readEvents(
  db: Database,
  workspaceId: string,
  query: EventQuery,
): Promise<EventPage> {
  const order = query.order ?? 'asc';
  const limit = query.limit ?? EVENT_PAGE_DEFAULT;
  let select = db
    .selectFrom('events')
    .select([
      'id',
      'occurred_at',
      'type',
      'resource_kind',
      'resource_id',
      'actor',
      'changes',
      'batch_id',
      'cause',
    ])
    .where('workspace_id', '=', workspaceId);
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
  const page = rows.slice(0, limit);
  const events: Event[] = page.map((row) => ({
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    type: row.type as Event['type'],
    resource: { kind: row.resource_kind, id: row.resource_id },
    actor: row.actor,
    changes: row.changes,
    batchId: row.batch_id,
    cause: row.cause as Event['cause'],
  }));
  const last = events.at(-1)?.id ?? null;
  const fallback = order === 'asc' ? (query.since ?? null) : null;
  return { events, nextCursor: last ?? fallback, hasMore };
}
