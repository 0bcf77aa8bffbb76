import type { FastifyBaseLogger } from 'fastify';
import { FeedRegistry } from '../db/feed-registry.js';
import type { Listener } from '../db/listen.js';
import type { Database } from '../db/schema.js';
import { coalesced } from '../lib/coalesced.js';
import { FollowerQuota } from '../platform/common/follower-quota.js';
import { type Place, type PlacedEvent, readPlaced } from './reader.js';

/** Sent at the commit of every transaction that writes events, with the workspace's id (migration `events_notify`). */
export const EVENTS_CHANNEL = 'sparrow_events';

/** Polled as well: a notification can be lost while the listener reconnects, and an event held back by an older transaction is not announced again. */
export const EVENT_FEED_POLL_MS = 1000;

/** How often an idle stream sends a comment line (and checks the caller's access again). */
export const KEEP_ALIVE_MS = 15_000;

/** Events one read of the log takes at most; a reader behind reads again at once. */
export const FEED_PAGE = 1000;

/** An event of the log and its place: where a follower stands. */
export interface LogMark {
  id: string;
  place: Place;
}

/** What a feed hands its followers. */
export interface FeedFollower {
  /** Events just read, unfiltered, in the log's order, each read once by the feed. */
  deliver(events: readonly PlacedEvent[]): void;
  /** The feed stops (its reader failed, the app closes): the follower ends. */
  end(): void;
}

export interface EventFeedsOptions {
  db: Database;
  listener: Listener;
  log: FastifyBaseLogger;
  /** Streams one caller may hold open at once in this process. */
  followersPerCaller: number;
  pollMs?: number;
}

/**
 * One workspace's log as one process reads it for its streams: from the
 * log's end when it starts (`ready`), then every event that reaches the log,
 * once, woken by the workspace's notification and by polling.
 */
class WorkspaceFeed {
  readonly key: string;
  readonly followers = new Set<FeedFollower>();
  /** The last event read, or the log's end when the feed started; null: the log was empty. */
  last: LogMark | null = null;
  readonly ready: Promise<void>;
  readonly wake: () => Promise<void>;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly workspaceId: string,
    private readonly options: EventFeedsOptions,
    private readonly onStop: (feed: WorkspaceFeed) => void,
  ) {
    this.key = workspaceId;
    this.wake = coalesced(() => this.read());
    this.ready = this.start();
    // A failed start is answered to the followers waiting for it; the feed goes.
    this.ready.catch(() => this.stop());
  }

  private async start(): Promise<void> {
    const { events } = await readPlaced(
      this.options.db,
      this.workspaceId,
      {},
      {
        order: 'desc',
        limit: 1,
      },
    );
    const newest = events[0];
    if (newest !== undefined) this.last = { id: newest.event.id, place: newest.place };
    if (this.stopped) return;
    this.timer = setInterval(() => void this.wake(), this.options.pollMs ?? EVENT_FEED_POLL_MS);
    this.timer.unref();
    // What committed while the notifications were being set up.
    void this.wake();
  }

  /**
   * Reads what follows `last` and hands it to every follower in the same
   * tick as the answer arrives, so a follower that joins in between either
   * gets an event from this read or finds it in the log itself.
   */
  private async read(): Promise<void> {
    try {
      await this.ready;
      while (!this.stopped) {
        const page = await readPlaced(
          this.options.db,
          this.workspaceId,
          {},
          {
            since: this.last?.place,
            order: 'asc',
            limit: FEED_PAGE,
          },
        );
        if (this.stopped) return;
        const newest = page.events.at(-1);
        if (newest !== undefined) {
          this.last = { id: newest.event.id, place: newest.place };
          for (const follower of this.followers) follower.deliver(page.events);
        }
        if (!page.hasMore) return;
      }
    } catch (error) {
      if (this.stopped) return;
      this.options.log.warn(
        { err: error, workspaceId: this.workspaceId },
        'could not read the event log for its streams',
      );
      this.end();
    }
  }

  /** Ends every follower (they reconnect, and resume from the log) and stops. */
  end(): void {
    this.stop();
    for (const follower of [...this.followers]) follower.end();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.onStop(this);
  }
}

/** A follower's place in a feed: the feed, to read its position once ready, and how to leave it. */
export interface FeedMembership {
  /** Resolves once the feed knows where the log ends; rejects when it could not read it. */
  ready: Promise<void>;
  /** The log's end as the feed last read it (after `ready`). */
  last(): LogMark | null;
  leave(): void;
}

/**
 * The event streams of one app (one server process): one shared reader per
 * workspace followed, woken by the workspace's `NOTIFY` and by polling, whose
 * reads are handed to every stream of the workspace; it stops when its last
 * stream leaves. Built with the app (`runtime.ts`).
 */
export class EventFeeds {
  readonly quota: FollowerQuota;
  /** The streams' keep-alive period (tests shorten it). */
  keepAliveMs = KEEP_ALIVE_MS;
  private readonly feeds: FeedRegistry<WorkspaceFeed>;
  private closed = false;

  constructor(private readonly options: EventFeedsOptions) {
    this.quota = new FollowerQuota(options.followersPerCaller);
    this.feeds = new FeedRegistry({
      listener: options.listener,
      channel: EVENTS_CHANNEL,
      onListenError: (error) =>
        options.log.warn({ err: error }, 'event streams fall back to polling the log'),
    });
  }

  /** Shared readers running now (one per workspace followed). */
  get readers(): number {
    return this.feeds.size;
  }

  /** Streams of one workspace in this process. */
  followers(workspaceId: string): number {
    return this.feeds.get(workspaceId)?.followers.size ?? 0;
  }

  /** Adds a follower to the workspace's feed, starting it when none runs. */
  join(workspaceId: string, follower: FeedFollower): FeedMembership {
    if (this.closed) throw new Error('the app is closing');
    const joined =
      this.feeds.get(workspaceId) ??
      this.feeds.add(
        new WorkspaceFeed(workspaceId, this.options, (stopped) => this.feeds.remove(stopped)),
      );
    joined.followers.add(follower);
    return {
      ready: joined.ready,
      last: () => joined.last,
      leave: () => {
        if (!joined.followers.delete(follower)) return;
        if (joined.followers.size === 0) joined.stop();
      },
    };
  }

  /** Ends every stream (the app closes: an open stream would hold its server open). */
  close(): void {
    this.closed = true;
    for (const feed of this.feeds.values()) feed.end();
  }
}
