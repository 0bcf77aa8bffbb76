import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { Agent, request } from 'undici';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import { BlockedAddressError, blockedLiteral, publicOnlyLookup } from './address.js';
import { buildEnvelopes, type DeliveryRef, type Envelope } from './payload.js';
import { signatureHeader } from './signature.js';
import { WAKE_CHANNEL } from './sink.js';

/** After this many consecutive failed attempts an endpoint pauses (spec: Limits). */
export const PAUSE_AFTER_FAILURES = 10;
/** Deliveries claimed (and sent concurrently) per cycle. */
const CLAIM_SIZE = 64;
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
 * Sends due webhook deliveries. Each cycle claims up to 64 due deliveries of
 * unpaused endpoints with `FOR UPDATE SKIP LOCKED` and moves their next
 * attempt past a lease, in one short statement, so several server processes
 * share the work without sending one twice and no transaction stays open
 * during a request (PGlite has one connection). The cycle's bodies are read
 * in one query and its results recorded in one transaction: the attempts,
 * the deliveries' next states and the endpoints' failure counts (10 in a
 * row pause one).
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
    await this.process(claimed);
    return claimed.length;
  }

  /**
   * Sends claimed deliveries at the same time (their bodies read in one
   * query) and records every outcome in one transaction, in the order the
   * answers came.
   */
  async process(claimed: readonly Claimed[]): Promise<void> {
    if (claimed.length === 0) return;
    const envelopes = await buildEnvelopes(this.db, claimed).catch((error: unknown) =>
      claimed.map(() => (error instanceof Error ? error : new Error(String(error)))),
    );
    const outcomes: Array<{ delivery: Claimed; outcome: Outcome }> = [];
    await Promise.all(
      claimed.map(async (delivery, index) => {
        const outcome = await this.attempt(delivery, envelopes[index]);
        outcomes.push({ delivery, outcome });
      }),
    );
    try {
      await this.record(outcomes);
    } catch (error) {
      this.log.error({ err: error }, 'could not record webhook attempts');
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Up to 64 due deliveries, each leased (its next attempt moved past the request's time-out). */
  async claim(): Promise<Claimed[]> {
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

  private async attempt(
    delivery: Claimed,
    envelope: Envelope | Error | undefined,
  ): Promise<Outcome> {
    try {
      if (envelope === undefined || envelope instanceof Error)
        throw envelope ?? new Error('no body');
      return await this.send(delivery, envelope);
    } catch (error) {
      return {
        startedAt: this.now(),
        durationMs: 0,
        statusCode: null,
        error: describeFailure(error, this.config.webhookTimeoutMs),
        succeeded: false,
      };
    }
  }

  private async send(delivery: Claimed, envelope: Envelope): Promise<Outcome> {
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

  /**
   * Records a cycle's outcomes in one transaction: the attempts, each
   * delivery's next state, and each endpoint's run of failures (reset by a
   * success, counted in the order the answers came; 10 in a row pause it).
   */
  private async record(outcomes: ReadonlyArray<{ delivery: Claimed; outcome: Outcome }>) {
    if (outcomes.length === 0) return;
    const now = this.now();
    const delays = this.config.webhookRetryDelaysMs;
    const next = outcomes.map(({ delivery, outcome }) => {
      const exhausted = delivery.attempt_count >= delivery.attempt_limit;
      const delay = delays[Math.min(delivery.attempt_count, delays.length) - 1] ?? 0;
      const finished = outcome.succeeded || exhausted;
      return {
        state: outcome.succeeded ? 'succeeded' : exhausted ? 'failed' : 'pending',
        nextAttemptAt: finished ? now : new Date(now.getTime() + delay),
        completedAt: finished ? now : null,
      };
    });
    const runs = new Map<string, { reset: boolean; failures: number }>();
    for (const { delivery, outcome } of outcomes) {
      const run = runs.get(delivery.endpoint_id) ?? { reset: false, failures: 0 };
      runs.set(
        delivery.endpoint_id,
        outcome.succeeded ? { reset: true, failures: 0 } : { ...run, failures: run.failures + 1 },
      );
    }
    const endpoints = [...runs].filter(([, run]) => run.reset || run.failures > 0);
    await inTransaction(this.db, async (trx) => {
      await sql`
        insert into webhook_attempts (id, delivery_id, number, started_at, duration_ms, status_code, error, succeeded)
        select * from unnest(
          ${outcomes.map(() => newId())}::uuid[],
          ${outcomes.map(({ delivery }) => delivery.id)}::uuid[],
          ${outcomes.map(({ delivery }) => delivery.attempt_count)}::int[],
          ${outcomes.map(({ outcome }) => outcome.startedAt.toISOString())}::timestamptz[],
          ${outcomes.map(({ outcome }) => outcome.durationMs)}::int[],
          ${outcomes.map(({ outcome }) => outcome.statusCode)}::int[],
          ${outcomes.map(({ outcome }) => outcome.error)}::text[],
          ${outcomes.map(({ outcome }) => outcome.succeeded)}::boolean[]
        )`.execute(trx);
      await sql`
        update webhook_deliveries d
        set state = input.state, next_attempt_at = input.next_attempt_at, completed_at = input.completed_at,
            last_status_code = input.status_code, last_error = input.error, updated_at = ${now}
        from unnest(
          ${outcomes.map(({ delivery }) => delivery.id)}::uuid[],
          ${next.map((row) => row.state)}::text[],
          ${next.map((row) => row.nextAttemptAt.toISOString())}::timestamptz[],
          ${next.map((row) => row.completedAt?.toISOString() ?? null)}::timestamptz[],
          ${outcomes.map(({ outcome }) => outcome.statusCode)}::int[],
          ${outcomes.map(({ outcome }) => outcome.error)}::text[]
        ) as input (id, state, next_attempt_at, completed_at, status_code, error)
        where d.id = input.id`.execute(trx);
      if (endpoints.length === 0) return;
      await sql`
        with input as (
          select * from unnest(
            ${endpoints.map(([id]) => id)}::uuid[],
            ${endpoints.map(([, run]) => run.reset)}::boolean[],
            ${endpoints.map(([, run]) => run.failures)}::int[]
          ) as input (id, reset, failures)
        ),
        counted as (
          select e.id, case when input.reset then input.failures else e.consecutive_failures + input.failures end
                 as failures
          from webhook_endpoints e join input on input.id = e.id
          order by e.id
          for no key update of e
        )
        update webhook_endpoints e
        set consecutive_failures = counted.failures,
            paused_at = case when e.paused_at is null and counted.failures >= ${PAUSE_AFTER_FAILURES}
                             then ${now}::timestamptz else e.paused_at end,
            pause_reason = case when e.paused_at is null and counted.failures >= ${PAUSE_AFTER_FAILURES}
                                then 'failures' else e.pause_reason end
        from counted
        where e.id = counted.id and e.consecutive_failures is distinct from counted.failures`.execute(
        trx,
      );
    });
  }
}

/** Cycles whose requests may be in flight at once: a slow endpoint holds back only its own. */
const PARALLEL_CYCLES = 4;

/**
 * Runs the dispatcher until stopped: claims whenever deliveries may be due,
 * at least every WEBHOOK_POLL_INTERVAL_MS, at once when a full claim suggests
 * more are waiting, and (on PostgreSQL) when a commit that queued deliveries
 * sends its NOTIFY. Up to four claimed batches are sent at the same time.
 * The returned function stops it after the batches in flight.
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
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    while (!stopped) {
      if (inFlight.size >= PARALLEL_CYCLES) {
        await Promise.race(inFlight);
        continue;
      }
      let claimed: Awaited<ReturnType<WebhookDispatcher['claim']>> = [];
      try {
        claimed = await dispatcher.claim();
      } catch (error) {
        log.error({ err: error }, 'webhook dispatch cycle failed');
      }
      if (claimed.length > 0) {
        const cycle: Promise<void> = dispatcher
          .process(claimed)
          .catch((error: unknown) => log.error({ err: error }, 'webhook dispatch cycle failed'))
          .finally(() => inFlight.delete(cycle));
        inFlight.add(cycle);
      }
      if (stopped || claimed.length >= CLAIM_SIZE) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.webhookPollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await Promise.all(inFlight);
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
