import xtermSerialize from '@xterm/addon-serialize';
import xtermHeadless from '@xterm/headless';

export interface EmulatorLimits {
  /** Output waits this long after the last byte before the emulator parses it. */
  idleMs: number;
  /** A flood longer than this is parsed while it goes on. */
  backlogBytes: number;
  /** Parsing this far behind pauses the program until it is back under `lowWater`. */
  highWater: number;
  lowWater: number;
}

/**
 * xterm discards (throws) past 50,000,000 bytes waiting to be parsed: the
 * limits keep what is handed to it well under that (a backlog and the high
 * water together stay under 32 MiB).
 */
export const DEFAULT_LIMITS: EmulatorLimits = {
  idleMs: 30,
  backlogBytes: 8 * 1024 * 1024,
  highWater: 24 * 1024 * 1024,
  lowWater: 8 * 1024 * 1024,
};

export interface FlowControl {
  pause(): void;
  resume(): void;
}

/**
 * A headless terminal that keeps a session's screen, scrollback and modes.
 * Parsing costs about as much CPU as forwarding the bytes, so output is
 * parsed when the program goes quiet (or the backlog grows large), not as it
 * arrives: a flood reaches clients at full speed and is parsed after. Every
 * byte is parsed before a snapshot or a resize takes effect, so neither ever
 * sees stale state.
 */
export class Emulator {
  private readonly terminal: InstanceType<typeof xtermHeadless.Terminal>;
  private readonly serializer = new xtermSerialize.SerializeAddon();
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | undefined;
  private unparsed = 0;
  private paused = false;
  private disposed = false;

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback: number,
    private readonly flow: FlowControl,
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
    if (this.backlogBytes >= this.limits.backlogBytes) this.flush();
    else this.timer ??= setTimeout(() => this.tick(), this.limits.idleMs);
  }

  private tick(): void {
    this.timer = undefined;
    const quiet = performance.now() - this.lastWrite;
    if (quiet >= this.limits.idleMs) this.flush();
    else this.timer = setTimeout(() => this.tick(), this.limits.idleMs - quiet);
  }

  /** Hands the backlog to the parser. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.backlogBytes === 0 || this.disposed) return;
    const chunks = this.backlog;
    const size = this.backlogBytes;
    this.backlog = [];
    this.backlogBytes = 0;
    this.unparsed += size;
    if (this.unparsed > this.limits.highWater && !this.paused) {
      this.paused = true;
      this.flow.pause();
    }
    // Chunk by chunk: the parser yields to I/O between chunks every few
    // milliseconds, so a large backlog never blocks the agent for long.
    const last = chunks.length - 1;
    chunks.forEach((chunk, index) => {
      try {
        this.terminal.write(chunk, index < last ? undefined : () => this.parsed(size));
      } catch {
        // Discarded by xterm (far behind): the screen misses these bytes, the
        // session and its clients do not.
        if (index === last) this.parsed(size);
      }
    });
  }

  private parsed(size: number): void {
    this.unparsed -= size;
    if (this.paused && this.unparsed < this.limits.lowWater) {
      this.paused = false;
      this.flow.resume();
    }
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
    if (this.paused) this.flow.resume();
    this.terminal.dispose();
  }
}
