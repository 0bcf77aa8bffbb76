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
  /** The app's sinks (`AppContext.eventSinks`), run with the events written. */
  sinks: EventSinks;
}

/**
 * Something that must happen in the transaction that writes events, with the
 * events just written (webhook deliveries are queued this way). A sink runs
 * after the events are inserted, on the same handle, once per `recordEvents`
 * call (a transaction may call it several times); it must stay set-based, since
 * one call can carry thousands of events. What it needs to read first
 * (`lookup`) is read in the statement that inserts the events, to spare a
 * round trip on every write. Sinks belong to an app: `buildRuntime` gathers
 * the `eventSinks` of its modules, and a scope carries them to the writer.
 */
export interface EventSink {
  /** A query whose rows `write` gets, run in the statement that inserts the events. */
  lookup?(workspaceId: string): RawBuilder<unknown>;
  write(db: Database, records: readonly EventRecord[], looked: readonly unknown[]): Promise<void>;
}

/** An app's event sinks, in the order its modules list them. */
export type EventSinks = readonly EventSink[];

/** The sinks' lookups as columns of one row (`sink0`, `sink1`, ...), each a JSON array. */
function lookups(workspaceId: string, sinks: EventSinks) {
  const columns = sinks.map((sink, index) => {
    const query = sink.lookup?.(workspaceId);
    const column = sql.ref(`sink${index}`);
    return query === undefined
      ? sql`'[]'::json as ${column}`
      : sql`(select coalesce(json_agg(found), '[]'::json) from (${query}) as found) as ${column}`;
  });
  return columns.length === 0 ? sql`1 as none` : sql.join(columns);
}

/**
 * Events about to be written: their records, the INSERT that writes them
 * (for a statement of its own or a CTE of the statement that makes the
 * change), the sinks' lookups as columns, and what runs once they are in.
 */
export interface PlannedEvents {
  records: EventRecord[];
  /**
   * The INSERT of the events. `merge` adds to each event's changes a JSON
   * object computed from a row of `merge.source` (a CTE of the same
   * statement) whose `id` is the event's resource id: what only the
   * statement knows, such as a card's number.
   */
  insert(merge?: { source: string; changes: RawBuilder<unknown> }): RawBuilder<unknown>;
  /** The sinks' lookups, as columns `sink0`, `sink1`, ... of one row. */
  lookups: RawBuilder<unknown>;
  /** Runs the sinks with the lookups' row, once the events are inserted. */
  finish(db: Database, looked: Record<string, unknown> | undefined): Promise<void>;
}

/**
 * The log's transaction id of an event: the writing transaction's, or, when
 * the resource's last event sorts after that, that event's. A transaction
 * may take its id before it holds the resource's lock (PostgreSQL assigns
 * one while a row lock waits behind an updated row), so a later change of
 * the resource could otherwise sort before an earlier one. The statement
 * runs once the change holds the resource, so it sees the earlier change's
 * events; a position from the sequence, taken after them, orders the two.
 * Never below the writing transaction's id, so the horizon still holds the
 * event back while its transaction runs (`reader.ts`).
 */
const resourceXid = sql`greatest(pg_current_xact_id(),
  (select max(prior.xid) from events as prior where prior.resource_id = input.resource_id))`;

export function planEvents(scope: EventScope, inputs: readonly EventInput[]): PlannedEvents {
  const ids = inputs.map(() => newId());
  const batchId = scope.batchId ?? (inputs.length > 1 ? newId() : null);
  const occurredAt = new Date();
  const cause = scope.cause ?? 'edit';
  const records: EventRecord[] = inputs.map((input, index) => ({
    ...input,
    id: ids[index] ?? '',
    workspaceId: scope.workspaceId,
    occurredAt,
    actor: scope.actor,
    batchId,
    cause,
  }));
  return {
    records,
    insert(merge) {
      const source = merge === undefined ? undefined : sql.ref(merge.source);
      return sql`
        insert into events (id, workspace_id, occurred_at, type, resource_kind, resource_id, actor, changes, batch_id, cause, xid)
        select input.id, ${scope.workspaceId}, ${occurredAt}, input.type, input.resource_kind, input.resource_id,
               ${JSON.stringify(scope.actor)}::jsonb,
               ${merge === undefined ? sql`input.changes::jsonb` : sql`input.changes::jsonb || ${merge.changes}`},
               ${batchId}, ${cause}, ${resourceXid}
        from unnest(
          ${ids}::uuid[],
          ${records.map((record) => record.type)}::text[],
          ${records.map((record) => record.resource.kind)}::text[],
          ${records.map((record) => record.resource.id)}::uuid[],
          ${records.map((record) => JSON.stringify(record.changes))}::text[]
        ) as input (id, type, resource_kind, resource_id, changes)
        ${source === undefined ? sql`` : sql`join ${source} on ${source}.id = input.resource_id`}
        returning 1`;
    },
    lookups: lookups(scope.workspaceId, scope.sinks),
    async finish(db, looked) {
      for (const [index, sink] of scope.sinks.entries()) {
        const rows = looked?.[`sink${index}`];
        await sink.write(db, records, Array.isArray(rows) ? rows : []);
      }
    },
  };
}

/**
 * Writes events with the handle of the change they describe, so an event
 * exists if and only if its change commits. No lock: each event takes the
 * writing transaction's id (or its resource's last, `resourceXid`) and a
 * position from a sequence, and the log is read in that order, only up to the oldest transaction still running
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
  const planned = planEvents(scope, inputs);
  const { rows } = await sql<Record<string, unknown>>`
    with inserted as (${planned.insert()})
    select ${planned.lookups}`.execute(db);
  await planned.finish(db, rows[0]);
  return planned.records;
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
