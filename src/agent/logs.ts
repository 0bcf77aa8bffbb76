import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { fromEngineError } from './errors.js';
import { demultiplex, type Frame, FrameDecoder } from './frames.js';

/** Largest log text returned in one answer; the last bytes are kept. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;

async function isTty(container: Docker.Container): Promise<boolean> {
  const info = await container.inspect();
  return info.Config?.Tty === true;
}

/** The last `tail` lines (all when omitted) of stdout and stderr, in order, as text. */
export async function containerLogs(docker: Docker, id: string, tail?: number): Promise<string> {
  const container = docker.getContainer(id);
  try {
    const tty = await isTty(container);
    const raw = await container.logs({ stdout: true, stderr: true, follow: false, tail });
    const bytes = tty ? raw : Buffer.concat(demultiplex(raw).map((frame) => frame.data));
    const kept =
      bytes.length > MAX_LOG_BYTES ? bytes.subarray(bytes.length - MAX_LOG_BYTES) : bytes;
    return kept.toString('utf8');
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
