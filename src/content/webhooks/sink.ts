import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventRecord } from '../../events/types.js';
import type { EventSink } from '../../events/writer.js';
import { newId } from '../../lib/ids.js';
import { subscribes } from './patterns.js';

/** Notified at commit (PostgreSQL delivers NOTIFY then), so dispatchers wake at once. */
export const WAKE_CHANNEL = 'sparrow_webhook_deliveries';

interface Row {
  id: string;
  endpointId: string;
  type: string;
  eventId: string | null;
  firstEventId: string;
  lastEventId: string;
  count: number;
}

/** One row per subscribed endpoint and event; for a batch, one per endpoint and type. */
function plan(
  endpoints: ReadonlyArray<{ id: string; event_types: string[] }>,
  records: readonly EventRecord[],
  batched: boolean,
): Row[] {
  const rows: Row[] = [];
  for (const endpoint of endpoints) {
    const byType = new Map<string, Row>();
    for (const record of records) {
      if (!subscribes(endpoint.event_types, record.type)) continue;
      if (!batched) {
        rows.push({
          id: newId(),
          endpointId: endpoint.id,
          type: record.type,
          eventId: record.id,
          firstEventId: record.id,
          lastEventId: record.id,
          count: 1,
        });
        continue;
      }
      const row = byType.get(record.type);
      if (row === undefined) {
        byType.set(record.type, {
          id: newId(),
          endpointId: endpoint.id,
          type: record.type,
          eventId: null,
          firstEventId: record.id,
          lastEventId: record.id,
          count: 1,
        });
      } else {
        row.lastEventId = record.id;
        row.count += 1;
      }
    }
    rows.push(...byType.values());
  }
  return rows;
}

interface Endpoint {
  id: string;
  event_types: string[];
}

/**
 * The event sink of the webhooks module: queues deliveries in the transaction
 * that writes the events, filtered by each endpoint's patterns, so a committed
 * change always has its deliveries and a rolled-back one never does. The
 * workspace's endpoints are read in the statement that inserts the events;
 * one more statement inserts the deliveries, whatever the number of events.
 * Events of a batch become one delivery per endpoint and type; later calls of the same transaction for that batch merge into it
 * (the unique key includes the transaction id).
 */
export const queueDeliveries: EventSink = {
  lookup: (workspaceId) =>
    sql`select id, event_types from webhook_endpoints where workspace_id = ${workspaceId}`,
  write: async (db: Database, records, looked) => {
    const first = records[0];
    if (first === undefined || looked.length === 0) return;
    await insertDeliveries(db, first, looked as Endpoint[], records);
  },
};

async function insertDeliveries(
  db: Database,
  first: EventRecord,
  endpoints: readonly Endpoint[],
  records: readonly EventRecord[],
): Promise<void> {
  const rows = plan(endpoints, records, first.batchId !== null);
  if (rows.length === 0) return;
  await sql`
    with queued as (
      insert into webhook_deliveries
        (id, workspace_id, endpoint_id, event_type, event_id, batch_id, first_event_id, last_event_id, event_count)
      select id, ${first.workspaceId}::uuid, endpoint_id, event_type, event_id, ${first.batchId}::uuid, first_event_id,
             last_event_id, event_count
      from unnest(
        ${rows.map((row) => row.id)}::uuid[],
        ${rows.map((row) => row.endpointId)}::uuid[],
        ${rows.map((row) => row.type)}::text[],
        ${rows.map((row) => row.eventId)}::uuid[],
        ${rows.map((row) => row.firstEventId)}::uuid[],
        ${rows.map((row) => row.lastEventId)}::uuid[],
        ${rows.map((row) => row.count)}::int[]
      ) as input (id, endpoint_id, event_type, event_id, first_event_id, last_event_id, event_count)
      on conflict (endpoint_id, batch_id, event_type, tx_id) where batch_id is not null
      do update set last_event_id = excluded.last_event_id,
                    event_count = webhook_deliveries.event_count + excluded.event_count,
                    updated_at = now()
      returning 1
    )
    select pg_notify(${WAKE_CHANNEL}, '') as notified`.execute(db);
}

/** Wakes the dispatchers at commit: deliveries were made due by something other than a new event. */
export async function wakeDispatchers(db: Database): Promise<void> {
  await sql`select pg_notify(${WAKE_CHANNEL}, '')`.execute(db);
}
