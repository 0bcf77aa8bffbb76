import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

/**
 * PostgreSQL `LISTEN`/`NOTIFY` for one app: `notify(db, channel, payload)`
 * sends with the caller's handle (so a notification inside a transaction
 * leaves at its commit, and never if it rolls back), `listen(channel,
 * handler)` receives from every process on the database. On PostgreSQL one
 * dedicated connection per app listens, reconnecting after errors; on PGlite
 * (one process) PGlite's own notifications serve.
 *
 * A handler called with `null` may have missed notifications (the connection
 * was lost and is back): it resynchronizes (drops a cache, polls once).
 */
export type NotificationHandler = (payload: string | null) => void;

/** Where notifications come from: a database handle gives its own (`connect.ts`). */
export interface NotificationSource {
  /** Starts listening; the returned function stops. */
  subscribe(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
}

/** Sends a notification with this handle: at commit when it is a transaction. */
export async function notify(db: Database, channel: string, payload: string): Promise<void> {
  checkChannel(channel);
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

const RECONNECT_MS = [100, 500, 2000, 5000];

/** One dedicated client on this PostgreSQL URL, connected on the first `subscribe`. */
export function postgresNotifications(url: string, onError?: (error: unknown) => void) {
  const handlers = new Map<string, Set<NotificationHandler>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const dispatch = (channel: string, payload: string | null) => {
    for (const handler of handlers.get(channel) ?? []) handler(payload);
  };

  const lost = (failed: pg.Client, error: unknown) => {
    if (client !== failed) return;
    client = null;
    failed.removeAllListeners();
    void failed.end().catch(() => {});
    if (closed) return;
    onError?.(error);
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)] ?? 5000;
    attempt += 1;
    timer = setTimeout(() => {
      void connect()
        .then(() => {
          // Whatever was sent while the connection was down is gone: resynchronize.
          for (const channel of handlers.keys()) dispatch(channel, null);
        })
        .catch((reconnectError: unknown) => onError?.(reconnectError));
    }, delay);
  };

  const connect = (): Promise<pg.Client> => {
    if (client !== null) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      next.on('error', (error) => lost(next, error));
      next.on('end', () => lost(next, new Error('notification connection ended')));
      next.on('notification', (message) => dispatch(message.channel, message.payload ?? ''));
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`listen ${channel}`);
      } catch (error) {
        next.removeAllListeners();
        await next.end().catch(() => {});
        throw error;
      } finally {
        connecting = null;
      }
      client = next;
      attempt = 0;
      if (closed) await next.end().catch(() => {});
      return next;
    })();
    return connecting;
  };

  const source: NotificationSource = {
    async subscribe(channel, handler) {
      checkChannel(channel);
      const known = handlers.get(channel);
      if (known !== undefined) known.add(handler);
      else {
        handlers.set(channel, new Set([handler]));
        // LISTEN twice is harmless: a connection opened just now has already listened.
        await (await connect()).query(`listen ${channel}`);
      }
      return async () => {
        const set = handlers.get(channel);
        set?.delete(handler);
        if (set?.size === 0) {
          handlers.delete(channel);
          await client?.query(`unlisten ${channel}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      handlers.clear();
      const current = client;
      client = null;
      await connecting?.catch(() => {});
      if (current !== null) {
        current.removeAllListeners();
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
  return source;
}

/** PGlite's own notifications (one process, delivered after commit). */
export function pgliteNotifications(pglite: PGlite): NotificationSource {
  const stops = new Set<() => Promise<void>>();
  return {
    async subscribe(channel, handler) {
      checkChannel(channel);
      const unsubscribe = await pglite.listen(channel, (payload) => handler(payload));
      const stop = async () => {
        stops.delete(stop);
        await unsubscribe();
      };
      stops.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...stops].map((stop) => stop().catch(() => {})));
    },
  };
}

/** The app's listener: handlers by channel over one source; closed with the app. */
export interface Listener {
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A listener without a source hears nothing (a handle that cannot listen). */
export function createListener(source: NotificationSource | undefined): Listener {
  return {
    listen: (channel, handler) =>
      source === undefined ? Promise.resolve(async () => {}) : source.subscribe(channel, handler),
    close: () => source?.close() ?? Promise.resolve(),
  };
}

/**
 * Listens from now on without waiting for the LISTEN to be in place, for
 * callers that also poll (a notification sent before it is in place is
 * simply missed); the returned function stops. A failure to listen is
 * reported to `onError` and leaves the caller to its polling.
 */
export function subscribe(
  listener: Listener,
  channel: string,
  handler: NotificationHandler,
  onError: (error: unknown) => void = () => {},
): () => void {
  const stopping = listener.listen(channel, handler).catch((error: unknown) => {
    onError(error);
    return async () => {};
  });
  return () => {
    void stopping.then((stop) => stop()).catch(onError);
  };
}
