import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../module.js';
import type { Database } from './schema.js';

type Handler = (payload: string) => void;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const RETRY_MS = 2000;

function checkChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel "${channel}"`);
  return channel;
}

/**
 * One dedicated PostgreSQL connection per application that LISTENs on the
 * channels asked for and hands each notification to its handlers. It
 * reconnects after an error (and LISTENs again); notifications sent while it
 * was away are lost, so every user also polls now and then. On PGlite (one
 * process, no second connection) it does nothing: users poll.
 */
export class Listener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(
    private readonly url: string | null,
    private readonly log: AppContext['log'],
  ) {}

  /** Calls `handler` with each notification's payload on `channel`; returns the unsubscribe. */
  listen(channel: string, handler: Handler): () => void {
    checkChannel(channel);
    let set = this.handlers.get(channel);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(channel, set);
      this.client?.query(`listen ${channel}`).catch(() => {});
    }
    set.add(handler);
    this.ensureConnected();
    return () => set.delete(handler);
  }

  /** Resolves once the connection listens (at once on PGlite or when it cannot connect). */
  ready(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  private ensureConnected(): void {
    if (this.url === null || this.closed || this.client !== null || this.connecting !== null) {
      return;
    }
    this.connecting = this.connect(this.url).finally(() => {
      this.connecting = null;
    });
  }

  private async connect(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          this.log.error({ err: error, channel: message.channel }, 'notification handler failed');
        }
      }
    });
    const lost = (error: unknown) => {
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log.warn({ err: error }, 'notification connection lost; reconnecting');
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.ensureConnected(), RETRY_MS);
      this.retry.unref();
    };
    client.on('error', lost);
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${channel}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
    } catch (error) {
      lost(error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

const listeners = new WeakMap<AppContext, Listener>();

/** The application's listener (one connection, made on the first `listen`). */
export function listener(ctx: AppContext): Listener {
  let found = listeners.get(ctx);
  if (found === undefined) {
    found = new Listener(ctx.dbKind === 'postgres' ? ctx.config.databaseUrl : null, ctx.log);
    listeners.set(ctx, found);
  }
  return found;
}

export function listen(ctx: AppContext, channel: string, handler: Handler): () => void {
  return listener(ctx).listen(channel, handler);
}

/**
 * Sends a notification with the given handle: inside a transaction it is
 * delivered when (and only if) the transaction commits.
 */
export async function notify(db: Database, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${checkChannel(channel)}, ${payload})`.execute(db);
}
