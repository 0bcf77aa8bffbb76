import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
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
 * one call can carry thousands of events. What it needs to read first
 * (`lookup`) is read in the statement that inserts the events, to spare a
 * round trip on every write. Sinks are process-wide: `buildApp` installs the
 * `eventSinks` of its modules, and installing one twice is a no-op.
 */
export interface EventSink {
  /** A query whose rows `write` gets, run in the statement that inserts the events. */
  lookup?(workspaceId: string): RawBuilder<unknown>;
  write(db: Database, records: readonly EventRecord[], looked: readonly unknown[]): Promise<void>;
}

const sinks = new Set<EventSink>();

export function installEventSink(sink: EventSink): void {
  sinks.add(sink);
}

/** The sinks' lookups as columns of one row (`sink0`, `sink1`, ...), each a JSON array. */
function lookups(workspaceId: string, installed: readonly EventSink[]) {
  const columns = installed.map((sink, index) => {
    const query = sink.lookup?.(workspaceId);
    const column = sql.ref(`sink${index}`);
    return query === undefined
      ? sql`'[]'::json as ${column}`
      : sql`(select coalesce(json_agg(found), '[]'::json) from (${query}) as found) as ${column}`;
  });
  return columns.length === 0 ? sql`1 as none` : sql.join(columns);
}

/**
 * Writes events with the handle of the change they describe, so an event
 * exists if and only if its change commits. No lock: each event takes the
 * writing transaction's id and a position from a sequence, and the log is
 * read in that order, only up to the oldest transaction still running
 * (`reader.ts`), so a reader paging with `since` never skips an event that
 * commits late, and writers of one workspace do not wait for each other.
 */
export async function recordEvents(
  db: Database,
  scope: EventScope,
  inputs: readonly EventInput[],
): Promise<EventRecord[]> {
  if (inputs.length === 0) return [];
  if (!db.isTransaction) throw new Error('recordEvents must run in the transaction of the change');
  const now = Date.now();
  const ids = inputs.map(() => newId());
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
  const installed = [...sinks];
  const { rows } = await sql<Record<string, unknown[]>>`
    with inserted as (
      insert into events (id, workspace_id, occurred_at, type, resource_kind, resource_id, actor, changes, batch_id, cause)
      select id, ${scope.workspaceId}, ${occurredAt}, type, resource_kind, resource_id,
             ${JSON.stringify(scope.actor)}::jsonb, changes::jsonb, ${batchId}, ${scope.cause ?? 'edit'}
      from unnest(
        ${ids}::uuid[],
        ${records.map((record) => record.type)}::text[],
        ${records.map((record) => record.resource.kind)}::text[],
        ${records.map((record) => record.resource.id)}::uuid[],
        ${records.map((record) => JSON.stringify(record.changes))}::text[]
      ) as input (id, type, resource_kind, resource_id, changes)
      returning 1
    )
    select ${lookups(scope.workspaceId, installed)}`.execute(db);
  const looked = rows[0] ?? {};
  for (const [index, sink] of installed.entries()) {
    await sink.write(db, records, looked[`sink${index}`] ?? []);
  }
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
