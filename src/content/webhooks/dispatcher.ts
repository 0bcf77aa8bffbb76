import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { Agent, request } from 'undici';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import { BlockedAddressError, blockedLiteral, publicOnlyLookup } from './address.js';
import { buildEnvelope, type DeliveryRef } from './payload.js';
import { signatureHeader } from './signature.js';
import { WAKE_CHANNEL } from './sink.js';

/** After this many consecutive failed attempts an endpoint pauses (spec: Limits). */
export const PAUSE_AFTER_FAILURES = 10;
/** Deliveries claimed (and sent concurrently) per cycle. */
const CLAIM_SIZE = 32;
/** A claimed delivery is not due again before this, so a crash mid-attempt retries it later. */
const LEASE_MARGIN_MS = 30_000;
const USER_AGENT = 'Sparrow-Webhooks/0.1';
const MAX_ERROR_LENGTH = 500;

interface Claimed extends DeliveryRef {
  endpoint_id: string;
  attempt_count: number;
  attempt_limit: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

interface Outcome {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') {
      return `timed out after ${timeoutMs} ms`;
    }
    const cause = error.cause instanceof Error ? error.cause : null;
    if (cause instanceof BlockedAddressError) return cause.message;
    const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
    return `${error.message}${code}`.slice(0, MAX_ERROR_LENGTH);
  }
  return String(error).slice(0, MAX_ERROR_LENGTH);
}

export interface DispatcherOptions {
  /** The clock; tests may move it. */
  now?: () => Date;
}

/**
 * Sends due webhook deliveries. Each cycle claims up to 32 due deliveries of
 * unpaused endpoints with `FOR UPDATE SKIP LOCKED` and moves their next
 * attempt past a lease, in one short statement, so several server processes
 * share the work without sending one twice and no transaction stays open
 * during a request (PGlite has one connection). Each result is recorded in a
 * transaction of its own: the attempt, the delivery's next state and the
 * endpoint's failure count (10 in a row pause it).
 */
export class WebhookDispatcher {
  private readonly agent: Agent;
  private readonly now: () => Date;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    options: DispatcherOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.agent = new Agent({
      connect: config.webhookAllowPrivate ? {} : { lookup: publicOnlyLookup },
      headersTimeout: config.webhookTimeoutMs,
      bodyTimeout: config.webhookTimeoutMs,
    });
  }

  /** One cycle: claims, sends and records; returns how many deliveries it attempted. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return claimed.length;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.config.webhookTimeoutMs + LEASE_MARGIN_MS);
    const { rows } = await sql<Claimed>`
      with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.state = 'pending' and d.next_attempt_at <= ${now} and e.paused_at is null
        order by d.next_attempt_at, d.id
        limit ${CLAIM_SIZE}
        for update of d skip locked
      )
      update webhook_deliveries d
      set attempt_count = d.attempt_count + 1, next_attempt_at = ${leaseUntil}, updated_at = now()
      from due, webhook_endpoints e
      where d.id = due.id and e.id = d.endpoint_id
      returning d.id, d.workspace_id, d.endpoint_id, d.event_type, d.event_id, d.batch_id,
                d.first_event_id, d.last_event_id, d.event_count, d.attempt_count, d.attempt_limit,
                e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`.execute(this.db);
    return rows;
  }

  private async attempt(delivery: Claimed): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await this.send(delivery);
    } catch (error) {
      outcome = {
        startedAt: this.now(),
        durationMs: 0,
        statusCode: null,
        error: describeFailure(error, this.config.webhookTimeoutMs),
        succeeded: false,
      };
    }
    try {
      await this.record(delivery, outcome);
    } catch (error) {
      this.log.error({ err: error, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  }

  private async send(delivery: Claimed): Promise<Outcome> {
    const envelope = await buildEnvelope(this.db, delivery);
    const body = JSON.stringify(envelope);
    const startedAt = this.now();
    const secrets = [delivery.secret];
    if (
      delivery.previous_secret !== null &&
      delivery.previous_secret_expires_at !== null &&
      delivery.previous_secret_expires_at > startedAt
    ) {
      secrets.push(delivery.previous_secret);
    }
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(delivery.url);
    const blocked = this.config.webhookAllowPrivate ? null : blockedLiteral(url);
    if (blocked !== null) {
      return {
        startedAt,
        durationMs: 0,
        statusCode: null,
        error: new BlockedAddressError(blocked).message,
        succeeded: false,
      };
    }
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.config.webhookTimeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'x-service-signature': signatureHeader(
            body,
            secrets,
            Math.floor(startedAt.getTime() / 1000),
          ),
          'x-service-delivery': delivery.id,
          'x-service-event': delivery.event_type,
          'x-service-attempt': String(delivery.attempt_count),
        },
        body,
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const succeeded = response.statusCode >= 200 && response.statusCode < 300;
      return {
        startedAt,
        durationMs: elapsed(),
        statusCode: response.statusCode,
        error: succeeded ? null : `HTTP ${response.statusCode}`,
        succeeded,
      };
    } catch (error) {
      return {
        startedAt,
        durationMs: elapsed(),
        statusCode: null,
        error: describeFailure(error, this.config.webhookTimeoutMs),
        succeeded: false,
      };
    }
  }

  private async record(delivery: Claimed, outcome: Outcome): Promise<void> {
    const now = this.now();
    const exhausted = delivery.attempt_count >= delivery.attempt_limit;
    const delays = this.config.webhookRetryDelaysMs;
    const delay = delays[Math.min(delivery.attempt_count, delays.length) - 1] ?? 0;
    await inTransaction(this.db, async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId(),
          delivery_id: delivery.id,
          number: delivery.attempt_count,
          started_at: outcome.startedAt,
          duration_ms: outcome.durationMs,
          status_code: outcome.statusCode,
          error: outcome.error,
          succeeded: outcome.succeeded,
        })
        .execute();
      const finished = outcome.succeeded || exhausted;
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state: outcome.succeeded ? 'succeeded' : exhausted ? 'failed' : 'pending',
          next_attempt_at: finished ? now : new Date(now.getTime() + delay),
          completed_at: finished ? now : null,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
          updated_at: now,
        })
        .where('id', '=', delivery.id)
        .execute();
      if (outcome.succeeded) {
        await trx
          .updateTable('webhook_endpoints')
          .set({ consecutive_failures: 0 })
          .where('id', '=', delivery.endpoint_id)
          .where('consecutive_failures', '>', 0)
          .execute();
        return;
      }
      await sql`
        update webhook_endpoints
        set consecutive_failures = consecutive_failures + 1,
            paused_at = case when paused_at is null and consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES}
                             then ${now}::timestamptz else paused_at end,
            pause_reason = case when paused_at is null and consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES}
                                then 'failures' else pause_reason end
        where id = ${delivery.endpoint_id}`.execute(trx);
    });
  }
}

/**
 * Runs the dispatcher until stopped: a cycle whenever deliveries may be due,
 * at least every WEBHOOK_POLL_INTERVAL_MS, at once when a full claim suggests
 * more are waiting, and (on PostgreSQL) when a commit that queued deliveries
 * sends its NOTIFY. The returned function stops it after the cycle in progress.
 */
export async function runDispatcher(
  db: Database,
  config: Config,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  const dispatcher = new WebhookDispatcher(db, config, log);
  let stopped = false;
  let wake: () => void = () => {};
  const listener =
    config.databaseUrl === null ? null : await listen(config.databaseUrl, log, () => wake());
  const loop = (async () => {
    while (!stopped) {
      let attempted = 0;
      try {
        attempted = await dispatcher.runOnce();
      } catch (error) {
        log.error({ err: error }, 'webhook dispatch cycle failed');
      }
      if (stopped || attempted >= CLAIM_SIZE) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.webhookPollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return async () => {
    stopped = true;
    wake();
    await loop;
    await listener?.close();
    await dispatcher.close();
  };
}

/** A dedicated connection that LISTENs for queued deliveries; reconnects after errors. */
async function listen(url: string, log: FastifyBaseLogger, onNotify: () => void) {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', onNotify);
    next.on('error', (error) => {
      log.warn({ err: error }, 'webhook wake-up connection lost; polling until it is back');
      next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), 5000);
    });
    try {
      await next.connect();
      await next.query(`listen ${WAKE_CHANNEL}`);
      client = next;
    } catch (error) {
      log.warn({ err: error }, 'webhook wake-up connection failed; polling');
      await next.end().catch(() => {});
      if (!closed) retry = setTimeout(() => void connect(), 5000);
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
