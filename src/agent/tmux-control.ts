import type Docker from 'dockerode';
import { startExec } from './exec.js';
import { FrameDecoder } from './frames.js';
import { TMUX, tmuxSessionName } from './tmux.js';

const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const OUTPUT = Buffer.from('%output ');

/**
 * The bytes of a `%output` notification's data: tmux writes every byte below
 * a space, and the backslash, as a backslash and three octal digits, and all
 * others as they are.
 */
export function decodeOutput(data: Buffer): Buffer {
  if (!data.includes(BACKSLASH)) return Buffer.from(data);
  const bytes = Buffer.allocUnsafe(data.length);
  let length = 0;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i] ?? 0;
    if (byte === BACKSLASH && i + 3 < data.length) {
      const code = ((data[i + 1] ?? 0) - 48) * 64 + ((data[i + 2] ?? 0) - 48) * 8;
      bytes[length++] = code + ((data[i + 3] ?? 0) - 48);
      i += 3;
    } else {
      bytes[length++] = byte;
    }
  }
  return bytes.subarray(0, length);
}

/** A single-quoted tmux argument; callers pass only their own names and formats. */
function quote(argument: string): string {
  return `'${argument.replaceAll("'", '')}'`;
}

export interface CommandResult {
  /** The lines each command printed, command by command. */
  blocks: string[][];
  lines: string[];
  failed: boolean;
  /** How many `%output` notifications came before the answer. */
  outputsBefore: number;
}

interface Pending {
  /** Output blocks still expected: one per command of the line. */
  expected: number;
  blocks: string[][];
  failed: boolean;
  resolve(result: CommandResult): void;
}

/**
 * A tmux client in control mode (`tmux -C`) on one session, run by the agent
 * through a plain (not TTY) exec. tmux sends it the pane's output as it reads
 * it from the program, byte for byte (`%output`, octal-escaped), instead of
 * drawing a screen; commands written to it (input with `send-keys -H`, the
 * size with `refresh-client -C`, captures) are run in order and answered in
 * `%begin`…`%end` blocks, in the same stream as the output, so an answer
 * reflects exactly the output before it.
 */
export class TmuxControl {
  private readonly decoder = new FrameDecoder();
  private partial: Buffer[] = [];
  private readonly pending: Pending[] = [];
  /** The block being read, when it answers one of our commands. */
  private block: { id: string; pending: Pending | undefined; lines: string[] } | null = null;
  readonly closed: Promise<void>;
  private isClosed = false;
  private outputs = 0;

  private constructor(
    private readonly started: Awaited<ReturnType<typeof startExec>>,
    private readonly onOutput: (bytes: Buffer) => void,
  ) {
    started.stream.on('data', (chunk: Buffer) => {
      for (const frame of this.decoder.push(chunk)) {
        if (frame.channel === 'stdout') this.read(frame.data);
      }
    });
    this.closed = new Promise((resolve) => {
      const end = () => {
        if (this.isClosed) return;
        this.isClosed = true;
        for (const pending of this.pending.splice(0))
          pending.resolve({ blocks: [], lines: [], failed: true, outputsBefore: this.outputs });
        resolve();
      };
      started.stream.once('end', end);
      started.stream.once('close', end);
      started.stream.once('error', end);
    });
  }

  static async attach(
    docker: Docker,
    containerId: string,
    name: string,
    onOutput: (bytes: Buffer) => void,
  ): Promise<TmuxControl> {
    const started = await startExec(docker, containerId, {
      command: [...TMUX, '-C', 'attach-session', '-t', `=${tmuxSessionName(name)}`],
      stdin: true,
    });
    return new TmuxControl(started, onOutput);
  }

  get open(): boolean {
    return !this.isClosed;
  }

  /** The target of this session's only pane. */
  static target(name: string): string {
    return quote(`=${tmuxSessionName(name)}:`);
  }

  /**
   * Runs a command line of `blocks` commands joined by ` ; ` (run back to
   * back, with no output read in between); resolves with every line they
   * printed, failed when one of them failed or the client ended.
   */
  run(line: string, blocks = 1): Promise<CommandResult> {
    if (this.isClosed) {
      return Promise.resolve({ blocks: [], lines: [], failed: true, outputsBefore: this.outputs });
    }
    return new Promise((resolve) => {
      this.pending.push({ expected: blocks, blocks: [], failed: false, resolve });
      this.started.stream.write(`${line}\n`);
    });
  }

  /** Sends bytes to the program as they are, as keys (`send-keys -H`: one hex byte a key). */
  input(name: string, bytes: Buffer): void {
    for (let offset = 0; offset < bytes.length; offset += 256) {
      const keys = [...bytes.subarray(offset, offset + 256)].map((byte) => byte.toString(16));
      void this.run(`send-keys -H -t ${TmuxControl.target(name)} ${keys.join(' ')}`);
    }
  }

  resize(cols: number, rows: number): Promise<CommandResult> {
    return this.run(`refresh-client -C ${cols}x${rows}`);
  }

  /** Stops reading: tmux keeps the output for this client meanwhile (the program goes on). */
  pause(): void {
    this.started.stream.pause();
  }

  resume(): void {
    this.started.stream.resume();
  }

  /** Ends this client only (its standard input closes); the session goes on. */
  close(): void {
    this.started.stream.end();
    const timer = setTimeout(() => this.started.stream.destroy(), 2000);
    void this.closed.then(() => clearTimeout(timer));
  }

  private read(data: Buffer): void {
    let start = 0;
    for (;;) {
      const end = data.indexOf(NEWLINE, start);
      if (end === -1) break;
      let line = data.subarray(start, end);
      if (this.partial.length > 0) {
        line = Buffer.concat([...this.partial, line]);
        this.partial = [];
      }
      this.line(line);
      start = end + 1;
    }
    if (start < data.length) this.partial.push(Buffer.from(data.subarray(start)));
  }

  private line(line: Buffer): void {
    if (this.block !== null) {
      const text = line.toString('utf8');
      const [guard, time, number] = text.split(' ');
      if ((guard === '%end' || guard === '%error') && `${time} ${number}` === this.block.id) {
        const { pending, lines } = this.block;
        this.block = null;
        if (pending === undefined) return;
        if (guard === '%error') pending.failed = true;
        pending.blocks.push(lines);
        if (pending.blocks.length === pending.expected) {
          this.pending.shift();
          pending.resolve({
            blocks: pending.blocks,
            lines: pending.blocks.flat(),
            failed: pending.failed,
            outputsBefore: this.outputs,
          });
        }
        return;
      }
      this.block.lines.push(text);
      return;
    }
    if (line.subarray(0, OUTPUT.length).equals(OUTPUT)) {
      // `%output %<pane> <data>`: the session has one pane.
      const space = line.indexOf(0x20, OUTPUT.length);
      if (space === -1) return;
      this.outputs++;
      this.onOutput(decodeOutput(line.subarray(space + 1)));
      return;
    }
    const text = line.toString('utf8');
    if (text.startsWith('%begin ')) {
      const [, time, number, flags] = text.split(' ');
      // Flags 1: a command of this client (0: the attach-session it started with).
      const ours = (Number(flags) & 1) === 1;
      this.block = {
        id: `${time} ${number}`,
        pending: ours ? this.pending[0] : undefined,
        lines: [],
      };
    }
  }
}
