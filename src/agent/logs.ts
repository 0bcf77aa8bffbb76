import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { fromEngineError } from './errors.js';
import { type Frame, FrameDecoder } from './frames.js';
import type { Channel } from './protocol/messages.js';

/** Largest log text returned in one answer; the last bytes are kept. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;

async function isTty(container: Docker.Container): Promise<boolean> {
  const info = await container.inspect();
  return info.Config?.Tty === true;
}

interface Line {
  size: number;
  segments: Frame[];
}

/**
 * Keeps the last `count` lines of a byte stream (a line ends with a newline;
 * what follows the last newline is a line too), and at most `maxBytes`, with
 * the channel each part came on.
 */
export class LastLines {
  private readonly lines: Line[] = [];
  /** The line being written: bytes after the last newline so far. */
  private open: Line = { size: 0, segments: [] };
  private bytes = 0;

  constructor(
    private readonly count: number,
    private readonly maxBytes = MAX_LOG_BYTES,
  ) {}

  push(chunk: Buffer, channel: Channel = 'stdout'): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.open.segments.push({ channel, data: chunk.subarray(start, end + 1) });
      this.open.size += end + 1 - start;
      this.lines.push(this.open);
      this.open = { size: 0, segments: [] };
      start = end + 1;
    }
    if (start < chunk.length) {
      this.open.segments.push({ channel, data: chunk.subarray(start) });
      this.open.size += chunk.length - start;
    }
    this.bytes += chunk.length;
    this.trim();
  }

  private trim(): void {
    const openLine = this.open.size > 0 ? 1 : 0;
    while (this.lines.length > 0 && this.lines.length + openLine > this.count) {
      this.bytes -= this.lines.shift()?.size ?? 0;
    }
    // Whole lines go while the rest still holds maxBytes; frames() cuts the first one kept.
    for (let first = this.lines[0]; first !== undefined; first = this.lines[0]) {
      if (this.bytes - first.size < this.maxBytes) break;
      this.bytes -= first.size;
      this.lines.shift();
    }
  }

  /** What is kept, in order, as frames (consecutive parts of one channel joined). */
  frames(): Frame[] {
    if (this.count === 0) return [];
    let skip = Math.max(0, this.bytes - this.maxBytes);
    const frames: Frame[] = [];
    for (const { channel, data } of [...this.lines, this.open].flatMap((line) => line.segments)) {
      const kept = skip >= data.length ? null : data.subarray(skip);
      skip = Math.max(0, skip - data.length);
      if (kept === null) continue;
      const last = frames.at(-1);
      if (last?.channel === channel) last.data = Buffer.concat([last.data, kept]);
      else frames.push({ channel, data: kept });
    }
    return frames;
  }

  result(): Buffer {
    return Buffer.concat(this.frames().map((frame) => frame.data));
  }
}

/** The whole log as a stream (dockerode buffers a log read without follow in memory). */
function logStream(docker: Docker, id: string): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    docker.modem.dial(
      {
        path: `/containers/${encodeURIComponent(id)}/logs?`,
        method: 'GET',
        isStream: true,
        statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
        options: { stdout: true, stderr: true, follow: false },
      },
      (error, stream) => {
        if (error !== null) reject(error);
        else if (stream instanceof Readable) resolve(stream);
        else reject(new Error('the engine answered a log read without a stream'));
      },
    );
  });
}

/**
 * The last `tail` lines (all when omitted) of stdout and stderr, in order, as
 * text. The lines are counted here, not by the engine: Podman's `tail` joins
 * a last line without newline to the line before it (and mixes up lines
 * written in parts), so the whole log is read as a stream and only its last
 * lines are kept; memory stays within `tail` lines and MAX_LOG_BYTES.
 */
export async function containerLogs(docker: Docker, id: string, tail?: number): Promise<string> {
  const kept = new LastLines(tail ?? Number.POSITIVE_INFINITY);
  await readLog(docker, id, (frame) => kept.push(frame.data, frame.channel));
  return kept.result().toString('utf8');
}

/** Reads the whole log once, frame by frame (a TTY container's output as stdout). */
async function readLog(docker: Docker, id: string, onFrame: (frame: Frame) => void) {
  try {
    const tty = await isTty(docker.getContainer(id));
    const stream = await logStream(docker, id);
    const decoder = new FrameDecoder();
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => {
        if (tty) onFrame({ channel: 'stdout', data: chunk });
        else for (const frame of decoder.push(chunk)) onFrame(frame);
      });
      stream.once('end', resolve);
      stream.once('error', reject);
    });
  } catch (error) {
    throw fromEngineError(error, `container ${id}`);
  }
}

/**
 * Passes on a followed log from `tail` lines back. The engine's `tail` is
 * not used (see containerLogs): the log so far is measured first, and of the
 * followed log (which starts from the beginning) that many bytes go through
 * LastLines; what follows passes as it comes.
 */
function tailGate(history: number, tail: number, onFrame: (frame: Frame) => void) {
  let remaining = history;
  const kept = new LastLines(tail);
  const flush = () => {
    for (const frame of kept.frames()) onFrame(frame);
  };
  if (remaining === 0) flush();
  return (frame: Frame) => {
    if (remaining === 0) return onFrame(frame);
    const take = Math.min(remaining, frame.data.length);
    kept.push(frame.data.subarray(0, take), frame.channel);
    remaining -= take;
    if (remaining > 0) return;
    flush();
    if (take < frame.data.length)
      onFrame({ channel: frame.channel, data: frame.data.subarray(take) });
  };
}

export interface LogFollower {
  stop(): void;
  pause(): void;
  resume(): void;
}

/**
 * Follows a container's output from `tail` lines back; `onEnd` is called once
 * when the container stops or the engine drops the stream (not after stop()).
 */
export async function followLogs(
  docker: Docker,
  id: string,
  tail: number | undefined,
  onFrame: (frame: Frame) => void,
  onEnd: (error?: Error) => void,
): Promise<LogFollower> {
  const container = docker.getContainer(id);
  let stream: NodeJS.ReadableStream;
  let tty: boolean;
  let pass = onFrame;
  if (tail !== undefined) {
    let history = 0;
    await readLog(docker, id, (frame) => {
      history += frame.data.length;
    });
    pass = tailGate(history, tail, onFrame);
  }
  try {
    tty = await isTty(container);
    stream = await container.logs({ stdout: true, stderr: true, follow: true });
  } catch (error) {
    throw fromEngineError(error, `container ${id}`);
  }
  const decoder = new FrameDecoder();
  let stopped = false;
  const finish = (error?: Error) => {
    if (stopped) return;
    stopped = true;
    onEnd(error);
  };
  stream.on('data', (chunk: Buffer) => {
    if (tty) pass({ channel: 'stdout', data: chunk });
    else for (const frame of decoder.push(chunk)) pass(frame);
  });
  stream.once('end', () => finish());
  stream.once('close', () => finish());
  stream.once('error', (error: Error) => finish(error));
  return {
    stop() {
      stopped = true;
      if (stream instanceof Readable) stream.destroy();
    },
    pause: () => stream.pause(),
    resume: () => stream.resume(),
  };
}
