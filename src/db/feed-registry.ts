import { type Listener, subscribe } from './listen.js';

/** A shared reader of something followed (a workspace's log, a run's output), by its key. */
export interface KeyedFeed {
  readonly key: string;
  /** Reads what is new now (coalesced by the feed: a wake during a read reads once more). */
  wake(): Promise<void>;
}

export interface FeedRegistryOptions {
  listener: Listener;
  /** The `NOTIFY` channel whose payload is the key of the feed to wake. */
  channel: string;
  /** The subscription failed: the feeds go on by polling alone. */
  onListenError: (error: unknown) => void;
}

/**
 * The feeds of one kind running in one server process, by key, and the one
 * subscription to their channel that wakes them, held while any runs: a
 * notification wakes the feed its payload names, and a `null` one (the
 * listener reconnected and may have missed some) wakes them all. Each feed
 * removes itself when it stops (its last follower left, its source ended).
 */
export class FeedRegistry<F extends KeyedFeed> {
  private readonly feeds = new Map<string, F>();
  private unlisten: (() => void) | null = null;

  constructor(private readonly options: FeedRegistryOptions) {}

  /** Feeds running now. */
  get size(): number {
    return this.feeds.size;
  }

  get(key: string): F | undefined {
    return this.feeds.get(key);
  }

  values(): F[] {
    return [...this.feeds.values()];
  }

  /** Adds a new feed, subscribing to the channel if it is the first. */
  add(feed: F): F {
    this.feeds.set(feed.key, feed);
    if (this.unlisten === null) {
      this.unlisten = subscribe(
        this.options.listener,
        this.options.channel,
        (payload) => {
          if (payload !== null) void this.feeds.get(payload)?.wake();
          else for (const each of this.feeds.values()) void each.wake();
        },
        this.options.onListenError,
      );
    }
    return feed;
  }

  /** Removes a stopped feed (if still the one at its key), unsubscribing after the last. */
  remove(feed: F): void {
    if (this.feeds.get(feed.key) === feed) this.feeds.delete(feed.key);
    if (this.feeds.size === 0 && this.unlisten !== null) {
      this.unlisten();
      this.unlisten = null;
    }
  }
}
