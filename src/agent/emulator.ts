import xtermSerialize from '@xterm/addon-serialize';
import xtermHeadless from '@xterm/headless';

export interface EmulatorLimits {
  /** Output waits this long after the last byte before the emulator parses it. */
  idleMs: number;
  /** While the parser keeps up, output this large is handed to it without waiting for quiet. */
  batchBytes: number;
  /**
   * A batch filling sooner than this after the last one was handed over (or
   * while the parser still has it) starts a flood: output faster than anyone
   * reads, which the parser is not asked to follow.
   */
  batchIntervalMs: number;
  /** Output coming faster than the parser: only the latest this many bytes wait for it. */
  tailBytes: number;
  /** A flood's tail waits this long after the last byte: short pauses do not end a flood. */
  floodQuietMs: number;
}

/**
 * xterm discards (throws) past 50,000,000 bytes waiting to be parsed: a batch
 * is handed over only once the last is parsed, and a flood keeps a bounded
 * tail, so what waits stays within a few MiB.
 */
export const DEFAULT_LIMITS: EmulatorLimits = {
  idleMs: 30,
  batchBytes: 1024 * 1024,
  batchIntervalMs: 200,
  tailBytes: 2 * 1024 * 1024,
  floodQuietMs: 500,
};

const NEWLINE = 0x0a;

/**
 * A headless terminal that keeps a session's screen, scrollback and modes.
 * Parsing costs more CPU than forwarding the bytes, so it never holds the
 * program back: output is parsed when the program goes quiet, or batch by
 * batch while it comes slowly. A flood (a batch filling too soon after the
 * last) is not parsed as it goes: only its latest `tailBytes` are kept, from
 * a line start, and parsed once it ends (`floodQuietMs` without output);
 * that is usually more than the screen and its scrollback hold, though a
 * mode switched inside the skipped part is missed. Clients get every byte
 * either way. Every byte kept is parsed before a snapshot or a resize takes
 * effect, so neither ever sees stale state.
 */
export class Emulator {
  private readonly terminal: InstanceType<typeof xtermHeadless.Terminal>;
  private readonly serializer = new xtermSerialize.SerializeAddon();
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  private lastWrite = 0;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Bytes handed to the parser and not parsed yet. */
  private unparsed = 0;
  /** In a flood: nothing is parsed until the program goes quiet. */
  private flooding = false;
  /** Older bytes of the backlog were dropped: it may start inside a line. */
  private cut = false;
  /** The last byte handed to the parser ended a line. */
  private atLineStart = true;
  private disposed = false;
  /** Bytes the emulator never parsed because a flood outran it. */
  skippedBytes = 0;

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback: number,
    private readonly limits: EmulatorLimits = DEFAULT_LIMITS,
  ) {
    this.terminal = new xtermHeadless.Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.terminal.loadAddon(this.serializer);
    // The emulator's own answers to queries (cursor position, device
    // attributes) are dropped: attached clients answer for themselves.
  }

  write(chunk: Buffer): void {
    if (this.disposed) return;
    this.backlog.push(chunk);
    this.backlogBytes += chunk.length;
    this.lastWrite = performance.now();
    if (!this.flooding && this.backlogBytes >= this.limits.batchBytes) {
      const keepsUp =
        this.unparsed === 0 && this.lastWrite - this.lastFlush >= this.limits.batchIntervalMs;
      if (keepsUp) this.flush();
      else this.flooding = true;
    }
    if (this.flooding) this.dropOldest();
    if (this.backlogBytes > 0) this.timer ??= setTimeout(() => this.tick(), this.limits.idleMs);
  }

  /** Keeps the latest `tailBytes` of the backlog, dropping whole chunks. */
  private dropOldest(): void {
    while (this.backlog.length > 1) {
      const first = this.backlog[0];
      if (first === undefined || this.backlogBytes - first.length < this.limits.tailBytes) break;
      this.backlog.shift();
      this.backlogBytes -= first.length;
      this.skippedBytes += first.length;
      this.cut = true;
    }
  }

  private tick(): void {
    this.timer = undefined;
    const quiet = performance.now() - this.lastWrite;
    const wait = this.flooding ? this.limits.floodQuietMs : this.limits.idleMs;
    if (quiet >= wait) this.flush();
    else this.timer = setTimeout(() => this.tick(), wait - quiet);
  }

  /** Hands the backlog to the parser; a flood ends here. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flooding = false;
    if (this.backlogBytes === 0 || this.disposed) return;
    this.lastFlush = performance.now();
    const chunks = this.backlog;
    this.backlog = [];
    this.backlogBytes = 0;
    if (this.cut) this.fromLineStart(chunks);
    this.cut = false;
    const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
    if (size === 0) return;
    this.atLineStart = chunks.at(-1)?.at(-1) === NEWLINE;
    this.unparsed += size;
    // Chunk by chunk: the parser yields to I/O between chunks every few
    // milliseconds, so a large backlog never blocks the agent for long.
    const last = chunks.length - 1;
    chunks.forEach((chunk, index) => {
      try {
        this.terminal.write(chunk, index < last ? undefined : () => this.parsed(size));
      } catch {
        // Discarded by xterm: the screen misses these bytes, the session
        // and its clients do not.
        if (index === last) this.parsed(size);
      }
    });
  }

  /**
   * After a cut, parsing resumes after the first newline, not inside a line
   * or a sequence, and on a line of its own.
   */
  private fromLineStart(chunks: Buffer[]): void {
    const first = chunks[0];
    if (first === undefined) return;
    const newline = first.indexOf(NEWLINE);
    if (newline !== -1) {
      this.skippedBytes += newline + 1;
      chunks[0] = first.subarray(newline + 1);
    }
    if (!this.atLineStart) chunks.unshift(Buffer.from('\r\n'));
  }

  private parsed(size: number): void {
    this.unparsed -= size;
  }

  /**
   * The serialized state (screen, scrollback, modes, cursor) after every byte
   * written before this call, and none written after.
   */
  snapshot(): Promise<string> {
    this.flush();
    return new Promise((resolve) => {
      // Serialize inside the callback: the parser goes on with later bytes
      // right after it returns.
      this.terminal.write('', () =>
        resolve(this.serializer.serialize({ scrollback: this.scrollback })),
      );
    });
  }

  /** Resizes once the bytes written before it are parsed, as a real terminal would. */
  resize(cols: number, rows: number): void {
    this.flush();
    this.terminal.write('', () => {
      if (!this.disposed) this.terminal.resize(cols, rows);
    });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.backlog = [];
    this.terminal.dispose();
  }
}
