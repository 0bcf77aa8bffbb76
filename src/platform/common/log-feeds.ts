import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { FeedRegistry } from '../../db/feed-registry.js';
import type { Listener } from '../../db/listen.js';
import { coalesced } from '../../lib/coalesced.js';

/** What one read of a source brings: frames for every follower, and its end. */
export interface FeedRead {
  frames: string[];
  /** The source is over: after the frames, every follower is closed with this. */
  end?: { code: number; reason: string };
}

/**
 * What a feed reads from the database. `read` queries without changing
 * anything and returns a function that takes what it found into account and
 * says what to send: called synchronously with the fan-out, so a follower
 * that joins in between gets it either in its `replay` or as a new frame,
 * never both, never neither.
 */
export interface FeedSource {
  read(): Promise<() => FeedRead>;
  /** Frames that bring a new follower up to what was read so far, in order. */
  replay(): string[];
}

export interface LogFeedsOptions {
  listener: Listener;
  log: FastifyBaseLogger;
  /** What a feed follows, for log lines (`job run`, `image build`). */
  what: string;
  /** Polled as well: a notification can be lost while the listener reconnects. */
  pollMs: number;
  /** The `NOTIFY` channel whose payload is the key of the feed to wake. */
  channel: string;
  /** Other wake-ups of a feed (changes made in this process); returns the stop function. */
  watch?: (key: string, wake: () => void) => () => void;
}

class Feed {
  readonly followers = new Set<WebSocket>();
  private stopped = false;
  private readonly timer: NodeJS.Timeout;
  private readonly unwatch: () => void;
  readonly wake: () => Promise<void>;

  constructor(
    readonly key: string,
    private readonly source: FeedSource,
    private readonly options: LogFeedsOptions,
    private readonly onStop: (feed: Feed) => void,
  ) {
    this.wake = coalesced(() => this.read());
    this.timer = setInterval(() => void this.wake(), options.pollMs);
    this.timer.unref();
    this.unwatch = options.watch?.(key, () => void this.wake()) ?? (() => {});
  }

  join(socket: WebSocket): void {
    for (const frame of this.source.replay()) send(socket, frame);
    this.followers.add(socket);
    socket.on('close', () => {
      this.followers.delete(socket);
      if (this.followers.size === 0) this.stop();
    });
  }

  private async read(): Promise<void> {
    if (this.stopped) return;
    try {
      const take = await this.source.read();
      if (this.stopped) return;
      const { frames, end } = take();
      for (const socket of this.followers) for (const frame of frames) send(socket, frame);
      if (end !== undefined) this.close(end.code, end.reason);
    } catch (error) {
      this.options.log.warn(
        { err: error, key: this.key },
        `could not read a ${this.options.what} for its followers`,
      );
      this.close(1011, `could not read the ${this.options.what}`);
    }
  }

  private close(code: number, reason: string): void {
    this.stop();
    for (const socket of this.followers) {
      if (socket.readyState === socket.OPEN) socket.close(code, reason);
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.unwatch();
    this.onStop(this);
  }
}

function send(socket: WebSocket, frame: string): void {
  if (socket.readyState === socket.OPEN) socket.send(frame);
}

/**
 * Log followers of one kind in one server process, by the key of what they
 * follow (a run, a build): one shared reader per key, woken by the key's
 * `NOTIFY` (and by polling), whose reads are fanned out to every follower of
 * the key. A follower that joins late is first sent what was read so far.
 * The reader stops, and its memory goes, when its last follower leaves or
 * its source ends.
 */
export class LogFeeds {
  private readonly feeds: FeedRegistry<Feed>;

  constructor(private readonly options: LogFeedsOptions) {
    this.feeds = new FeedRegistry({
      listener: options.listener,
      channel: options.channel,
      onListenError: (error) =>
        options.log.warn({ err: error }, `${options.what} followers fall back to polling`),
    });
  }

  /** Shared readers running now (one per key followed). */
  get readers(): number {
    return this.feeds.size;
  }

  /** Followers of one key in this process. */
  followers(key: string): number {
    return this.feeds.get(key)?.followers.size ?? 0;
  }

  /** Adds a socket to the followers of `key`, starting its reader with `create` if none runs. */
  follow(key: string, socket: WebSocket, create: () => FeedSource): void {
    if (socket.readyState !== socket.OPEN) return;
    const running = this.feeds.get(key);
    if (running !== undefined) {
      running.join(socket);
      return;
    }
    const feed = this.feeds.add(
      new Feed(key, create(), this.options, (stopped) => this.feeds.remove(stopped)),
    );
    feed.join(socket);
    void feed.wake();
  }
}
