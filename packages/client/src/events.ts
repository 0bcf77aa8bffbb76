import { requestHeaders, type SparrowClient, urlOf } from './client.js';
import { refusalOf, unwrap } from './errors.js';
import { parseSse } from './sse.js';
import type { Event, paths } from './types.js';

type LogQuery = NonNullable<
  paths['/workspaces/{workspaceId}/events']['get']['parameters']['query']
>;
type StreamQuery = NonNullable<
  paths['/workspaces/{workspaceId}/events/stream']['get']['parameters']['query']
>;

/** Filters of the log, as `GET .../events` takes them. */
export type EventFilters = Pick<LogQuery, 'type' | 'batchId' | 'cause'>;

export interface ReadEventsOptions extends EventFilters {
  /** Start after this event id (exclusive); absent: from the log's beginning. */
  since?: string;
  /** Events per request (default 100, at most 1000). */
  limit?: number;
  /**
   * Keep reading: once caught up, ask again every `pollMs` milliseconds
   * (the log's rule makes a poller miss nothing, even late commits). Absent:
   * stop once caught up.
   */
  pollMs?: number;
  /** Stops the reading (the iteration then ends). */
  signal?: AbortSignal;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Reads a workspace's event log in its own order with `since`, page after
 * page. Each event's `id` is the cursor to save: pass the last one handled
 * as `since` to resume. With `pollMs` it follows the log for ever (until
 * `signal` aborts).
 */
export async function* readEvents(
  client: SparrowClient,
  workspaceId: string,
  options: ReadEventsOptions = {},
): AsyncIterableIterator<Event> {
  const { since, pollMs, signal, limit, type, batchId, cause } = options;
  let cursor = since;
  while (!signal?.aborted) {
    const query: LogQuery = { order: 'asc' };
    if (cursor !== undefined) query.since = cursor;
    if (limit !== undefined) query.limit = limit;
    if (type !== undefined) query.type = type;
    if (batchId !== undefined) query.batchId = batchId;
    if (cause !== undefined) query.cause = cause;
    const page = await unwrap(
      client.GET('/workspaces/{workspaceId}/events', {
        params: { path: { workspaceId }, query },
        ...(signal === undefined ? {} : { signal }),
      }),
    );
    for (const event of page.events) {
      yield event;
      cursor = event.id;
    }
    if (page.nextCursor !== null) cursor = page.nextCursor;
    if (page.hasMore) continue;
    if (pollMs === undefined) return;
    await sleep(pollMs, signal);
  }
}

export interface StreamEventsOptions extends EventFilters {
  /** Start after this event id (exclusive); absent: only events from now on. */
  since?: string;
  /** Called once the server has replayed what followed `since` and the stream is live. */
  onReady?(cursor: string | null): void;
  /**
   * Reconnect when the stream ends or drops (a server restart, a slow
   * reader), resuming after the last event seen with `Last-Event-ID`, after
   * the server's `retry:` delay. Default true. A refusal (401, 404, 429) is
   * thrown, never retried.
   */
  reconnect?: boolean;
  signal?: AbortSignal;
}

function streamQuery(options: StreamEventsOptions): URLSearchParams {
  const query = new URLSearchParams();
  const filters: StreamQuery = {};
  if (options.batchId !== undefined) filters.batchId = options.batchId;
  if (options.cause !== undefined) filters.cause = options.cause;
  for (const type of options.type ?? []) query.append('type', type);
  for (const [name, value] of Object.entries(filters)) query.set(name, String(value));
  return query;
}

/** The `cursor` of the `ready` message: the last event passed, null for an empty log. */
function readyCursor(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !('cursor' in value)) return null;
  return typeof value.cursor === 'string' ? value.cursor : null;
}

function isEvent(value: unknown): value is Event {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'type' in value
  );
}

/**
 * Follows a workspace's log live (`GET .../events/stream`, Server-Sent
 * Events read with `fetch`, so a bearer token can be sent): each event
 * once, in the log's order, with no gap across reconnections.
 */
export async function* streamEvents(
  client: SparrowClient,
  workspaceId: string,
  options: StreamEventsOptions = {},
): AsyncIterableIterator<Event> {
  const { connection } = client;
  const { signal, reconnect = true } = options;
  let lastId = options.since;
  let retryMs = 2000;
  const base = streamQuery(options);
  while (!signal?.aborted) {
    const headers: Record<string, string> = {
      ...requestHeaders(connection),
      accept: 'text/event-stream',
    };
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    let response: Response;
    try {
      response = await connection.fetch(
        urlOf(connection, `/workspaces/${encodeURIComponent(workspaceId)}/events/stream`, base),
        {
          headers,
          ...(connection.credentials === undefined ? {} : { credentials: connection.credentials }),
          ...(signal === undefined ? {} : { signal }),
        },
      );
    } catch (error) {
      if (signal?.aborted) return;
      if (!reconnect) throw error;
      await sleep(retryMs, signal);
      continue;
    }
    if (!response.ok || response.body === null) throw await refusalOf(response);
    try {
      const messages = parseSse(response.body, { retry: (ms) => (retryMs = ms) });
      for await (const message of messages) {
        if (message.event === 'ready') {
          const cursor = readyCursor(JSON.parse(message.data));
          if (cursor !== null) lastId = cursor;
          options.onReady?.(cursor);
          continue;
        }
        if (message.event !== 'message') continue;
        const event: unknown = JSON.parse(message.data);
        if (!isEvent(event)) continue;
        lastId = event.id;
        yield event;
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (!reconnect) throw error;
    }
    if (!reconnect || signal?.aborted) return;
    await sleep(retryMs, signal);
  }
}
