import type { Database } from '../../db/schema.js';
import { readEventRanges } from '../../events/reader.js';
import type { Event } from '../../events/schemas.js';

/** Batches of fewer events than this are inlined in the delivery body (spec: Limits). */
export const INLINE_BELOW = 50;

export interface DeliveryRef {
  id: string;
  workspace_id: string;
  event_type: string;
  event_id: string | null;
  batch_id: string | null;
  first_event_id: string;
  last_event_id: string;
  event_count: number;
}

/** A single event: `{kind: "event", deliveryId, workspaceId, type, eventIds, event}`. */
export interface EventEnvelope {
  kind: 'event';
  deliveryId: string;
  workspaceId: string;
  type: string;
  eventIds: string[];
  event: Event;
}

/**
 * A batch (a bulk edit, an import, a cascade): one delivery per batch and
 * type. Under 50 events they are inlined in `events` (and listed in
 * `eventIds`); otherwise the receiver reads `batch.read.path`.
 */
export interface BatchEnvelope {
  kind: 'batch';
  deliveryId: string;
  workspaceId: string;
  type: string;
  batch: {
    batchId: string;
    count: number;
    firstEventId: string;
    lastEventId: string;
    read: { batchId: string; path: string };
  };
  eventIds?: string[];
  events?: Event[];
}

export type Envelope = EventEnvelope | BatchEnvelope;

/** The path (under either API root) that lists a batch's events of one type, oldest first. */
export function batchReadPath(workspaceId: string, batchId: string, type: string): string {
  const query = new URLSearchParams({ batchId, type, limit: '1000' });
  return `/workspaces/${workspaceId}/events?${query.toString()}`;
}

/**
 * The bodies of deliveries, built from the (immutable) event log at each
 * attempt, in one query; a delivery whose events cannot be read gets an Error.
 */
export async function buildEnvelopes(
  db: Database,
  deliveries: readonly DeliveryRef[],
): Promise<Array<Envelope | Error>> {
  const inlined = (delivery: DeliveryRef) =>
    delivery.batch_id === null || delivery.event_count < INLINE_BELOW;
  const wanted = deliveries.filter(inlined);
  const ranges = await readEventRanges(
    db,
    wanted.map((delivery) => ({
      workspaceId: delivery.workspace_id,
      type: delivery.event_type,
      batchId: delivery.batch_id,
      fromId: delivery.first_event_id,
      toId: delivery.batch_id === null ? delivery.first_event_id : delivery.last_event_id,
    })),
  );
  const eventsOf = new Map(wanted.map((delivery, index) => [delivery.id, ranges[index] ?? []]));
  return deliveries.map((delivery) => {
    try {
      return envelope(delivery, eventsOf.get(delivery.id) ?? []);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });
}

function envelope(delivery: DeliveryRef, events: readonly Event[]): Envelope {
  const base = {
    deliveryId: delivery.id,
    workspaceId: delivery.workspace_id,
    type: delivery.event_type,
  };
  if (delivery.batch_id === null) {
    const [event] = events;
    if (event === undefined) throw new Error(`event ${delivery.first_event_id} is missing`);
    return { kind: 'event', ...base, eventIds: [event.id], event };
  }
  const batch = {
    batchId: delivery.batch_id,
    count: delivery.event_count,
    firstEventId: delivery.first_event_id,
    lastEventId: delivery.last_event_id,
    read: {
      batchId: delivery.batch_id,
      path: batchReadPath(delivery.workspace_id, delivery.batch_id, delivery.event_type),
    },
  };
  if (delivery.event_count >= INLINE_BELOW) return { kind: 'batch', ...base, batch };
  return {
    kind: 'batch',
    ...base,
    batch,
    eventIds: events.map((event) => event.id),
    events: [...events],
  };
}
