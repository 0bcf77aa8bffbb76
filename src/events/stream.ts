import { PassThrough } from 'node:stream';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/schema.js';
import type { Principal } from '../http/principal.js';
import { tooManyFollowers } from '../platform/common/follower-quota.js';
import { type EventFeeds, FEED_PAGE, type FeedFollower, type LogMark } from './feeds.js';
import {
  comparePlaces,
  type EventFilters,
  type PlacedEvent,
  passes,
  readPlaced,
} from './reader.js';
import { Event } from './schemas.js';

/** The `retry:` hint: how long `EventSource` waits before reconnecting. */
export const RETRY_MS = 2000;

/**
 * Bytes a stream may have waiting for a slow client before it is ended; the
 * client reconnects with `Last-Event-ID` and is caught up from the log.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

let serializer: ((event: Event) => string) | undefined;

/** One event as `GET .../events` writes it (the same schema strips the same fields). */
function serialize(event: Event): string {
  serializer ??= fastJsonStringify(Event) as (event: Event) => string;
  return serializer(event);
}

function eventFrame(event: Event): string {
  return `id: ${event.id}\ndata: ${serialize(event)}\n\n`;
}

function readyFrame(cursor: string | null): string {
  const id = cursor === null ? '' : `id: ${cursor}\n`;
  return `event: ready\n${id}data: ${JSON.stringify({ cursor })}\n\n`;
}

export interface StreamRequest {
  db: Database;
  workspaceId: string;
  filters: EventFilters;
  /** Resume after this event (its place already found); absent: from the log's end. */
  after?: LogMark;
  principal: Principal;
  /** Whether the caller may still read the log (checked with each keep-alive). */
  stillAllowed(): Promise<boolean>;
}

/**
 * One client's stream: events after its cursor replayed from the log, then
 * what the workspace's shared reader reads, each event once, in the log's
 * order. Events the reader hands over while the replay runs wait in
 * `pending`; an event is sent only when its place follows the last one
 * passed, which is how the replay and the live events meet without a gap
 * (the reader reads on from where the log was settled when it last read;
 * the replay's last page sees at least that far) or a repeat.
 */
class EventStream implements FeedFollower {
  readonly out = new PassThrough();
  private pending: PlacedEvent[] | null = [];
  private last: LogMark | null;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private release: () => void = () => {};
  private leave: () => void = () => {};
  private keepAliveMs = 0;

  constructor(private readonly request: StreamRequest) {
    this.last = request.after ?? null;
    this.out.on('close', () => this.end());
  }

  /** Joins the feed and finds the start; the stream is not opened yet (errors are still answers). */
  async join(feeds: EventFeeds): Promise<void> {
    const { principal, workspaceId } = this.request;
    this.keepAliveMs = feeds.keepAliveMs;
    // Throws 429 when the caller holds all their places; nothing awaits in between.
    tooManyFollowers(feeds.quota, principal);
    this.release = feeds.quota.take(principal) ?? (() => {});
    try {
      const membership = feeds.join(workspaceId, this);
      this.leave = membership.leave;
      await membership.ready;
      this.last ??= membership.last();
    } catch (error) {
      this.end();
      throw error;
    }
  }

  /** Replays from the log, then turns live; the reply streams from now on. */
  async run(): Promise<void> {
    this.write(`retry: ${RETRY_MS}\n\n`);
    this.timer = setInterval(() => void this.keepAlive(), this.keepAliveMs);
    try {
      await this.replay();
    } catch {
      // The log could not be read: the client reconnects and resumes.
      this.end();
      return;
    }
    if (this.closed) return;
    const pending = this.pending ?? [];
    this.pending = null;
    this.pass(pending);
    this.write(readyFrame(this.last?.id ?? null));
  }

  private async replay(): Promise<void> {
    const { db, workspaceId, filters } = this.request;
    for (;;) {
      const page = await readPlaced(db, workspaceId, filters, {
        since: this.last?.place,
        order: 'asc',
        limit: FEED_PAGE,
      });
      if (this.closed) return;
      let frames = '';
      for (const { event, place } of page.events) {
        frames += eventFrame(event);
        this.last = { id: event.id, place };
      }
      if (!this.write(frames)) await this.drained();
      if (!page.hasMore || this.closed) return;
    }
  }

  deliver(events: readonly PlacedEvent[]): void {
    if (this.closed) return;
    if (this.pending !== null) this.pending.push(...events);
    else this.pass(events);
  }

  /** Sends what follows the last event passed and matches the filters. */
  private pass(events: readonly PlacedEvent[]): void {
    let frames = '';
    for (const { event, place } of events) {
      if (this.last !== null && comparePlaces(place, this.last.place) <= 0) continue;
      this.last = { id: event.id, place };
      if (passes(event, this.request.filters)) frames += eventFrame(event);
    }
    this.write(frames);
    if (this.out.writableLength + this.out.readableLength > MAX_BUFFERED_BYTES) this.end();
  }

  private async keepAlive(): Promise<void> {
    const allowed = await this.request.stillAllowed().catch(() => false);
    if (!allowed) this.end();
    else this.write(': keep-alive\n\n');
  }

  private write(text: string): boolean {
    if (this.closed || text === '') return true;
    return this.out.write(text);
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = null;
    clearInterval(this.timer);
    this.leave();
    this.release();
    if (!this.out.destroyed) this.out.end();
  }
}

/**
 * Answers with the workspace's events as Server-Sent Events (see the route's
 * description). Everything that can refuse (the cursor, the caller's quota,
 * the first read of the log) happens before the answer starts, so a refusal
 * is an ordinary JSON error.
 */
export async function streamEvents(
  feeds: EventFeeds,
  request: StreamRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const stream = new EventStream(request);
  await stream.join(feeds);
  reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no');
  void reply.send(stream.out);
  void stream.run();
  return reply;
}
