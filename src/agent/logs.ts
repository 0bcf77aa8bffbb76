import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { fromEngineError } from './errors.js';
import { type Frame, FrameDecoder } from './frames.js';

/** Largest log text returned in one answer; the last bytes are kept. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;

async function isTty(container: Docker.Container): Promise<boolean> {
  const info = await container.inspect();
  return info.Config?.Tty === true;
}

/**
 * Keeps the last `count` lines of a byte stream (a line ends with a newline;
 * what follows the last newline is a line too), and at most `maxBytes`.
 */
export class LastLines {
  private readonly lines: Buffer[] = [];
  /** The line being written: bytes after the last newline so far. */
  private open: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly count: number,
    private readonly maxBytes = MAX_LOG_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.open.push(chunk.subarray(start, end + 1));
      this.lines.push(Buffer.concat(this.open));
      this.open = [];
      start = end + 1;
    }
    if (start < chunk.length) this.open.push(chunk.subarray(start));
    this.bytes += chunk.length;
    this.trim();
  }

  private trim(): void {
    const openLine = this.open.length > 0 ? 1 : 0;
    while (this.lines.length > 0 && this.lines.length + openLine > this.count) {
      this.bytes -= this.lines.shift()?.length ?? 0;
    }
    // Whole lines go while the rest still holds maxBytes; result() cuts the first one kept.
    for (let first = this.lines[0]; first !== undefined; first = this.lines[0]) {
      if (this.bytes - first.length < this.maxBytes) break;
      this.bytes -= first.length;
      this.lines.shift();
    }
  }

  result(): Buffer {
    if (this.count === 0) return Buffer.alloc(0);
    const bytes = Buffer.concat([...this.lines, ...this.open]);
    return bytes.length > this.maxBytes ? bytes.subarray(bytes.length - this.maxBytes) : bytes;
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
  const container = docker.getContainer(id);
  try {
    const tty = await isTty(container);
    const stream = await logStream(docker, id);
    const kept = new LastLines(tail ?? Number.POSITIVE_INFINITY);
    const decoder = new FrameDecoder();
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => {
        if (tty) kept.push(chunk);
        else for (const frame of decoder.push(chunk)) kept.push(frame.data);
      });
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    return kept.result().toString('utf8');
  } catch (error) {
    throw fromEngineError(error, `container ${id}`);
  }
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
  try {
    tty = await isTty(container);
    stream = await container.logs({ stdout: true, stderr: true, follow: true, tail });
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
    if (tty) onFrame({ channel: 'stdout', data: chunk });
    else for (const frame of decoder.push(chunk)) onFrame(frame);
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
