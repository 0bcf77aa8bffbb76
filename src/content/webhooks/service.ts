import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { checkEndpointUrl } from './address.js';
import { checkPatterns } from './patterns.js';
import type {
  CreateWebhookEndpoint,
  DeliveryPage,
  DeliveryQuery,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './schemas.js';
import { generateSecret, SECRET_PREFIX } from './signature.js';
import { wakeDispatchers } from './sink.js';

/** After a rotation the old secret keeps signing this long (24 hours). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const DELIVERY_PAGE_DEFAULT = 50;

const endpointColumns = [
  'id',
  'url',
  'description',
  'event_types',
  'secret',
  'previous_secret_expires_at',
  'paused_at',
  'pause_reason',
  'consecutive_failures',
  'created_by',
  'created_at',
  'updated_at',
] as const;

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  secret: string;
  previous_secret_expires_at: Date | null;
  paused_at: Date | null;
  pause_reason: 'manual' | 'failures' | null;
  consecutive_failures: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  const overlap = row.previous_secret_expires_at;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    state: row.paused_at === null ? 'active' : 'paused',
    pausedAt: row.paused_at?.toISOString() ?? null,
    pauseReason: row.pause_reason,
    consecutiveFailures: row.consecutive_failures,
    secretPrefix: row.secret.slice(0, SECRET_PREFIX.length + 4),
    previousSecretExpiresAt:
      overlap !== null && overlap.getTime() > Date.now() ? overlap.toISOString() : null,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function withSecret(row: EndpointRow): WebhookEndpointWithSecret {
  return { ...toEndpoint(row), secret: row.secret };
}

async function findEndpoint(
  db: Database,
  workspaceId: string,
  endpointId: string,
  lock = false,
): Promise<EndpointRow> {
  let query = db
    .selectFrom('webhook_endpoints')
    .select(endpointColumns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', endpointId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound('Webhook endpoint');
  return row;
}

export async function createEndpoint(
  db: Database,
  config: Config,
  access: WorkspaceAccess,
  input: CreateWebhookEndpoint,
): Promise<WebhookEndpointWithSecret> {
  const url = checkEndpointUrl(input.url, config.webhookAllowPrivate);
  const eventTypes = checkPatterns(input.eventTypes);
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      id: newId(),
      workspace_id: access.workspaceId,
      url,
      description: input.description ?? null,
      event_types: eventTypes,
      secret: generateSecret(),
      previous_secret: null,
      previous_secret_expires_at: null,
      paused_at: null,
      pause_reason: null,
      created_by: access.userId,
    })
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
  return withSecret(row);
}

export async function listEndpoints(db: Database, workspaceId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(endpointColumns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toEndpoint);
}

export async function getEndpoint(
  db: Database,
  workspaceId: string,
  endpointId: string,
): Promise<WebhookEndpoint> {
  return toEndpoint(await findEndpoint(db, workspaceId, endpointId));
}

export async function updateEndpoint(
  db: Database,
  config: Config,
  access: WorkspaceAccess,
  endpointId: string,
  input: UpdateWebhookEndpoint,
): Promise<WebhookEndpoint> {
  const before = await findEndpoint(db, access.workspaceId, endpointId, true);
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      url:
        input.url === undefined
          ? before.url
          : checkEndpointUrl(input.url, config.webhookAllowPrivate),
      event_types:
        input.eventTypes === undefined ? before.event_types : checkPatterns(input.eventTypes),
      description: input.description === undefined ? before.description : input.description,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', endpointId)
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
  return toEndpoint(row);
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(
  db: Database,
  workspaceId: string,
  endpointId: string,
): Promise<void> {
  await findEndpoint(db, workspaceId, endpointId, true);
  await db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).execute();
}

/** Pauses by hand: deliveries keep being queued and wait. Pausing a paused endpoint changes nothing. */
export async function pauseEndpoint(
  db: Database,
  workspaceId: string,
  endpointId: string,
): Promise<WebhookEndpoint> {
  const before = await findEndpoint(db, workspaceId, endpointId, true);
  if (before.paused_at !== null) return toEndpoint(before);
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ paused_at: sql<Date>`now()`, pause_reason: 'manual', updated_at: sql<Date>`now()` })
    .where('id', '=', endpointId)
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
  return toEndpoint(row);
}

/**
 * Un-pauses the endpoint, resets its failure count and makes every pending
 * delivery due at once. Resuming an active endpoint also makes them due.
 */
export async function resumeEndpoint(
  db: Database,
  workspaceId: string,
  endpointId: string,
): Promise<WebhookEndpoint> {
  await findEndpoint(db, workspaceId, endpointId, true);
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      paused_at: null,
      pause_reason: null,
      consecutive_failures: 0,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', endpointId)
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .execute();
  await wakeDispatchers(db);
  return toEndpoint(row);
}

/**
 * A new signing secret, shown once. The old one keeps signing for 24 hours
 * (each request then carries two `v1=` signatures), so receivers can switch
 * without losing a delivery. Rotating again ends the previous overlap.
 */
export async function rotateSecret(
  db: Database,
  workspaceId: string,
  endpointId: string,
): Promise<WebhookEndpointWithSecret> {
  const before = await findEndpoint(db, workspaceId, endpointId, true);
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret: generateSecret(),
      previous_secret: before.secret,
      previous_secret_expires_at: new Date(Date.now() + ROTATION_OVERLAP_MS),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', endpointId)
    .returning(endpointColumns)
    .executeTakeFirstOrThrow();
  return withSecret(row);
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  event_id: string | null;
  batch_id: string | null;
  event_count: number;
  state: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const deliveryColumns = [
  'id',
  'endpoint_id',
  'event_type',
  'event_id',
  'batch_id',
  'event_count',
  'state',
  'attempt_count',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'created_at',
  'completed_at',
] as const;

async function withAttempts(
  db: Database,
  rows: readonly DeliveryRow[],
): Promise<WebhookDelivery[]> {
  const ids = rows.map((row) => row.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where('delivery_id', 'in', ids)
          .orderBy('delivery_id')
          .orderBy('number')
          .execute();
  const byDelivery = new Map<string, WebhookDelivery['attempts']>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery_id) ?? [];
    list.push({
      number: attempt.number,
      startedAt: attempt.started_at.toISOString(),
      durationMs: attempt.duration_ms,
      statusCode: attempt.status_code,
      error: attempt.error,
      succeeded: attempt.succeeded,
    });
    byDelivery.set(attempt.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    kind: row.batch_id === null ? 'event' : 'batch',
    eventType: row.event_type,
    eventId: row.event_id,
    batchId: row.batch_id,
    eventCount: row.event_count,
    state: row.state,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.state === 'pending' ? row.next_attempt_at.toISOString() : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    attempts: byDelivery.get(row.id) ?? [],
  }));
}

/** The endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(
  db: Database,
  workspaceId: string,
  endpointId: string,
  query: DeliveryQuery,
): Promise<DeliveryPage> {
  await findEndpoint(db, workspaceId, endpointId);
  const limit = query.limit ?? DELIVERY_PAGE_DEFAULT;
  let select = db
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .where('endpoint_id', '=', endpointId);
  if (query.state !== undefined) select = select.where('state', '=', query.state);
  if (query.before !== undefined) select = select.where('id', '<', query.before);
  const rows = await select
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    deliveries: await withAttempts(db, page),
    nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

async function findDelivery(
  db: Database,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
  lock = false,
): Promise<DeliveryRow> {
  let query = db
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound('Delivery');
  return row;
}

export async function getDelivery(
  db: Database,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const [delivery] = await withAttempts(db, [
    await findDelivery(db, workspaceId, endpointId, deliveryId),
  ]);
  if (delivery === undefined) throw notFound('Delivery');
  return delivery;
}

/**
 * Replay: a new attempt of the delivery, due at once, whatever its state. A
 * pending delivery keeps its remaining retries; a finished one (succeeded or
 * failed) gets exactly one more attempt. The body is rebuilt from the log and
 * keeps the delivery id, so receivers that already handled it can tell.
 * On a paused endpoint the attempt waits for `resume`.
 */
export async function replayDelivery(
  db: Database,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const row = await findDelivery(db, workspaceId, endpointId, deliveryId, true);
  await db
    .updateTable('webhook_deliveries')
    .set({
      state: 'pending',
      next_attempt_at: sql<Date>`now()`,
      completed_at: null,
      attempt_limit:
        row.state === 'pending' ? sql<number>`attempt_limit` : sql<number>`attempt_count + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', deliveryId)
    .execute();
  await wakeDispatchers(db);
  return getDelivery(db, workspaceId, endpointId, deliveryId);
}

/** Deliveries not yet settled (due, leased or waiting for a retry) in every workspace: the queue depth. */
export async function countPendingDeliveries(db: Database): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
