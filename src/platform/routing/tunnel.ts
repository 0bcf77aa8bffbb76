import { Duplex } from 'node:stream';
import type { AgentPeer, PeerStream, StreamEnd } from '../../agent/peer.js';

/** A `port.connect` that answers no later than this fails the request (the agent connects in 10 s). */
const OPEN_TIMEOUT_MS = 15_000;
/** Input waits while the link to the agent holds more than this unsent, until it is under the low mark. */
const LINK_HIGH_WATER = 1024 * 1024;
const LINK_LOW_WATER = 256 * 1024;
const LINK_CHECK_MS = 5;
/** A tunnel whose container closed is destroyed at the latest this long after, read or not. */
const UNREAD_END_MS = 60_000;

/**
 * A TCP connection to a container's port through its node's agent
 * (`port.connect`), as a Duplex that node's HTTP client can use as a socket.
 * Reading pauses the agent's side when this end is not read (`stream.pause`);
 * writing waits while the agent says the container is not reading.
 */
export class TunnelSocket extends Duplex {
  private stream: PeerStream | null = null;
  private link: AgentPeer | null = null;
  /** The agent asked to hold input; the pending write's callback waits for `resume`. */
  private inputHeld = false;
  private heldWrite: (() => void) | null = null;
  private readPaused = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleMs = 0;
  // What node's HTTP client and Agent expect of a net.Socket.
  readonly remoteAddress = undefined;
  connecting = false;

  constructor() {
    // Chunks come in tens of kilobytes: a small mark would pause the agent on each.
    super({ readableHighWaterMark: 1024 * 1024, writableHighWaterMark: 256 * 1024 });
  }

  attach(stream: PeerStream, link: AgentPeer): void {
    this.stream = stream;
    this.link = link;
  }

  /** From the agent: bytes of the container. */
  received(bytes: Buffer): void {
    this.touch();
    if (!this.push(bytes) && !this.readPaused) {
      this.readPaused = true;
      this.stream?.pause();
    }
  }

  ended(end: StreamEnd): void {
    this.stream = null;
    if (end.error !== undefined && end.error.code !== 'connection_reset') {
      this.destroy(new Error(`${end.error.code}: ${end.error.message}`));
      return;
    }
    this.push(null);
    // The connection is closed both ways: nothing more can be written. What
    // came before the end and is not read yet (its reader is slower than the
    // agent) is read first: destroying now would drop it.
    if (this.readableLength === 0) {
      this.closeWhenFlushed();
      return;
    }
    this.once('end', () => this.closeWhenFlushed());
    // A tunnel whose last bytes nobody reads goes after a while all the same.
    setTimeout(() => this.destroy(), UNREAD_END_MS).unref();
  }

  holdInput(): void {
    this.inputHeld = true;
  }

  releaseInput(): void {
    this.inputHeld = false;
    const held = this.heldWrite;
    this.heldWrite = null;
    held?.();
  }

  override _read(): void {
    if (!this.readPaused) return;
    this.readPaused = false;
    this.stream?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error) => void) {
    if (this.stream === null) return callback(new Error('the connection is closed'));
    this.touch();
    this.stream.input(chunk);
    if (this.inputHeld) this.heldWrite = () => callback();
    else if ((this.link?.bufferedAmount ?? 0) > LINK_HIGH_WATER) this.waitForLink(callback);
    else callback();
  }

  /**
   * The link to the agent is backed up: the write completes once it drains
   * (and the agent does not hold input), so a fast client cannot pile its
   * upload up in this process's memory before the agent's pause arrives.
   */
  private waitForLink(callback: () => void): void {
    const check = setInterval(() => {
      if (this.stream !== null && (this.link?.bufferedAmount ?? 0) >= LINK_LOW_WATER) return;
      clearInterval(check);
      if (this.inputHeld) this.heldWrite = callback;
      else callback();
    }, LINK_CHECK_MS);
  }

  override _final(callback: (error?: Error) => void): void {
    // port.connect has no half-close: the HTTP exchanges over it never need one.
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    this.stream?.close();
    this.stream = null;
    const held = this.heldWrite;
    this.heldWrite = null;
    held?.();
    callback(error);
  }

  private closeWhenFlushed(): void {
    if (this.writableFinished || this.writableLength === 0) {
      queueMicrotask(() => this.destroy());
    } else {
      this.once('finish', () => this.destroy());
    }
  }

  private touch(): void {
    if (this.idleMs > 0) this.idleTimer?.refresh();
  }

  /** As net.Socket's: 'timeout' after `ms` without traffic; 0 turns it off (and drops `onTimeout`). */
  setTimeout(ms: number, onTimeout?: () => void): this {
    clearTimeout(this.idleTimer);
    this.idleMs = ms;
    if (ms === 0) {
      if (onTimeout !== undefined) this.off('timeout', onTimeout);
      return this;
    }
    if (onTimeout !== undefined) this.once('timeout', onTimeout);
    this.idleTimer = setTimeout(() => this.emit('timeout'), ms);
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}

/** Opens a tunnel to `port` of the container named `container` on the peer's node. */
export async function openTunnel(
  peer: AgentPeer,
  container: string,
  port: number,
): Promise<TunnelSocket> {
  const socket = new TunnelSocket();
  const { stream } = await peer.openStream(
    'port.connect',
    { containerId: container, port },
    {
      onData: (bytes) => socket.received(bytes),
      onEnd: (end) => socket.ended(end),
      onInputPause: () => socket.holdInput(),
      onInputResume: () => socket.releaseInput(),
    },
    OPEN_TIMEOUT_MS,
  );
  socket.attach(stream, peer);
  return socket;
}
