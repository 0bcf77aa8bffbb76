import WebSocket from 'ws';
import type { ErrorEnvelope } from './api-types.js';
import { eventually } from './engine.js';

/** The frames of `GET /api/workers/{workerId}/terminal`, which its description states in prose. */
export type TerminalFrame =
  | { type: 'ready'; mode: 'terminal' | 'logs'; session?: string; cols?: number; rows?: number }
  | { type: 'output'; data: string; stream?: 'stdout' | 'stderr' }
  | { type: 'exit' | 'end'; exitCode: number | null; error?: string }
  | { type: 'error'; code: string; message: string };

export interface TestSocket {
  socket: WebSocket;
  /** Every frame received, parsed. */
  frames: TerminalFrame[];
  /** Everything in `output` frames so far, decoded. */
  output(): string;
  send(frame: unknown): void;
  input(text: string): void;
  /** Waits for a frame matching `match`, among those received so far or to come. */
  frame(match: (frame: TerminalFrame) => boolean, timeoutMs?: number): Promise<TerminalFrame>;
  /** Waits until the decoded output contains `text`. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens a WebSocket with a bearer token and resolves once it is open. */
export async function openSocket(url: string, token?: string): Promise<TestSocket> {
  const socket = new WebSocket(url, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const frames: TerminalFrame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused with ${response.statusCode}`)),
    );
  });
  const output = () =>
    frames
      .filter((frame) => frame.type === 'output')
      .map((frame) => Buffer.from(frame.data, 'base64').toString('utf8'))
      .join('');
  return {
    socket,
    frames,
    output,
    send: (frame) => socket.send(JSON.stringify(frame)),
    input: (text) =>
      socket.send(JSON.stringify({ type: 'input', data: Buffer.from(text).toString('base64') })),
    frame: (match, timeoutMs = 15_000) =>
      eventually(() => frames.find(match), timeoutMs, 'a matching frame'),
    waitForOutput: async (text, timeoutMs = 15_000) => {
      await eventually(() => (output().includes(text) ? true : undefined), timeoutMs, `"${text}"`);
    },
    closed,
    close: () => socket.close(),
  };
}

/** The HTTP status a refused upgrade answers with, and its body: the Error envelope, as for REST. */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ErrorEnvelope }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: response.statusCode ?? 0, body: body as ErrorEnvelope });
      });
    });
    socket.once('error', () => {});
  });
}
