import { sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { nextIds } from './event-ids.js';
import type { Actor, Cause, EventInput, EventRecord } from './types.js';

/** Who writes the events and why; shared by every event of one call. */
export interface EventScope {
  workspaceId: string;
  actor: Actor;
  cause?: Cause;
  /**
   * The batch an action's events share. Left out (or null), a call that
   * writes more than one event gets a new one, so every event that is one
   * of many from one action carries a batch id (the spec's rule); an action
   * that writes events in several calls passes its own.
   */
  batchId?: string | null;
}

/**
 * Something that must happen in the transaction that writes events, with the
 * events just written (webhook deliveries are queued this way). A sink runs
 * after the events are inserted, on the same handle, once per `recordEvents`
 * call (a transaction may call it several times); it must stay set-based, since
 * one call can carry thousands of events. Sinks are process-wide: `buildApp`
 * installs the `eventSinks` of its modules, and installing one twice is a no-op.
 */
export type EventSink = (db: Database, records: readonly EventRecord[]) => Promise<void>;

const sinks = new Set<EventSink>();

export function installEventSink(sink: EventSink): void {
  sinks.add(sink);
}

/** Arbitrary but fixed: keeps these advisory locks apart from any other use. */
const LOCK_SEED = 7041;

/**
 * Writes events with the handle of the change they describe, so an event
 * exists if and only if its change commits. The first write of a transaction
 * takes a per-workspace lock held until commit and numbers its events after
 * the last committed one: event ids follow commit order within a workspace,
 * and a reader paging with `since` never skips an event that commits late.
 */
export async function recordEvents(
  db: Database,
  scope: EventScope,
  inputs: readonly EventInput[],
): Promise<EventRecord[]> {
  if (inputs.length === 0) return [];
  if (!db.isTransaction) throw new Error('recordEvents must run in the transaction of the change');
  await sql`select pg_advisory_xact_lock(hashtextextended(${scope.workspaceId}, ${LOCK_SEED}))`.execute(
    db,
  );
  const last = await db
    .selectFrom('events')
    .select('id')
    .where('workspace_id', '=', scope.workspaceId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const now = Date.now();
  const ids = nextIds(inputs.length, last?.id ?? null, now);
  const batchId = scope.batchId ?? (inputs.length > 1 ? newId() : null);
  const occurredAt = new Date(now);
  const records: EventRecord[] = inputs.map((input, index) => ({
    ...input,
    id: ids[index] ?? '',
    workspaceId: scope.workspaceId,
    occurredAt,
    actor: scope.actor,
    batchId,
    cause: scope.cause ?? 'edit',
  }));
  await sql`
    insert into events (id, workspace_id, occurred_at, type, resource_kind, resource_id, actor, changes, batch_id, cause)
    select id, ${scope.workspaceId}, ${occurredAt}, type, resource_kind, resource_id,
           ${JSON.stringify(scope.actor)}::jsonb, changes::jsonb, ${batchId}, ${scope.cause ?? 'edit'}
    from unnest(
      ${ids}::uuid[],
      ${records.map((record) => record.type)}::text[],
      ${records.map((record) => record.resource.kind)}::text[],
      ${records.map((record) => record.resource.id)}::uuid[],
      ${records.map((record) => JSON.stringify(record.changes))}::text[]
    ) as input (id, type, resource_kind, resource_id, changes)`.execute(db);
  for (const sink of sinks) await sink(db, records);
  return records;
}

/** Writes one event. */
export async function recordEvent(
  db: Database,
  scope: EventScope,
  input: EventInput,
): Promise<EventRecord> {
  const [record] = await recordEvents(db, scope, [input]);
  if (record === undefined) throw new Error('recordEvents returned nothing');
  return record;
}

/** Deletes a workspace's whole log; only the deletion of the workspace itself does this. */
export async function deleteWorkspaceLog(db: Database, workspaceId: string): Promise<void> {
  await db.deleteFrom('events').where('workspace_id', '=', workspaceId).execute();
}
