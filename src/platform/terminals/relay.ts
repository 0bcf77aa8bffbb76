import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type WebSocket from 'ws';
import type { PeerStream, StreamEnd } from '../../agent/peer.js';
import { rawText } from '../../agent/ws-text.js';
import { Strict } from '../../http/schemas.js';
import { fromAgentError } from '../workers/agent-call.js';

/** Output waiting in the socket past this pauses the agent's side; nothing is dropped. */
const HIGH_WATER = 2 * 1024 * 1024;
const LOW_WATER = 256 * 1024;

const ClientFrame = Type.Union([
  Strict({ type: Type.Literal('input'), data: Type.String({ maxLength: 16 * 1024 * 1024 }) }),
  Strict({
    type: Type.Literal('resize'),
    cols: Type.Integer({ minimum: 1, maximum: 1000 }),
    rows: Type.Integer({ minimum: 1, maximum: 1000 }),
  }),
]);
export type ClientFrame = Static<typeof ClientFrame>;
const clientFrame = Compile(ClientFrame);

function parseFrame(text: string): ClientFrame | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'frames are JSON text';
  }
  if (!clientFrame.Check(value))
    return 'expected {"type":"input","data":base64} or {"type":"resize","cols","rows"}';
  return value;
}

/** Handlers of an agent stream whose data goes to a client socket. */
export interface RelayHandlers {
  onData(bytes: Buffer, channel?: string): void;
  onBase64(base64: string, channel?: string): void;
  onEnd(end: StreamEnd): void;
}

/**
 * Frames to one client socket, with flow control: when more than
 * HIGH_WATER waits in the socket, `pause` is called, and `resume` once it
 * has drained below LOW_WATER (the agent stops reading its source meanwhile).
 *
 * `ready` comes first: until `ready()` is called, every frame (and a
 * `close()`) is held in order, then sent right after it. An agent sends a
 * stream's first bytes (a shell's prompt) with, or even before, the reply
 * that opens it; without this they would overtake `ready`, and a client
 * that waits for `ready` would lose them. `fail()` goes out at once.
 */
export class FrameSender {
  private waiting = 0;
  private paused = false;
  private held: Array<string | { code: number; reason: string }> | null = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly flow: { pause(): void; resume(): void },
  ) {}

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  /** Sends `{"type":"ready",...}`, then what was held until now. */
  ready(fields: Record<string, unknown>): void {
    const held = this.held ?? [];
    this.held = null;
    this.send(JSON.stringify({ type: 'ready', ...fields }));
    for (const item of held) {
      if (typeof item === 'string') this.send(item);
      else this.close(item.code, item.reason);
    }
  }

  /** Closes the socket, after `ready` and the frames before this call. */
  close(code: number, reason: string): void {
    if (this.held !== null) this.held.push({ code, reason });
    else if (this.open) this.socket.close(code, reason);
  }

  text(text: string): void {
    if (this.held !== null) this.held.push(text);
    else this.send(text);
  }

  private send(text: string): void {
    if (!this.open) return;
    this.waiting += text.length;
    this.socket.send(text, () => {
      this.waiting -= text.length;
      if (this.paused && this.waiting < LOW_WATER) {
        this.paused = false;
        this.flow.resume();
      }
    });
    if (!this.paused && this.waiting > HIGH_WATER) {
      this.paused = true;
      this.flow.pause();
    }
  }

  frame(frame: Record<string, unknown>): void {
    this.text(JSON.stringify(frame));
  }

  /** An `output` frame: base64 data, and the stream (stdout, stderr) and replica it came from. */
  output(base64: string, channel?: string, replica?: string): void {
    // Base64 and channel names need no JSON escaping: the frame is written as is.
    const stream = channel === undefined ? '' : `,"stream":"${channel}"`;
    const from = replica === undefined ? '' : `,"replica":${JSON.stringify(replica)}`;
    this.text(`{"type":"output","data":"${base64}"${stream}${from}}`);
  }

  /** `{"type":"error"}` for a failure of the agent (or of opening the stream), then a close. */
  fail(error: unknown): void {
    const failure = fromAgentError(error);
    const code =
      failure instanceof Error && 'code' in failure ? String(failure.code) : 'agent_error';
    // No `ready` will come: what was held is dropped, the error goes out now.
    this.held = null;
    this.send(
      JSON.stringify({
        type: 'error',
        code,
        message: failure instanceof Error ? failure.message : String(failure),
      }),
    );
    if (this.open) this.socket.close(1011, code);
  }
}

/**
 * Calls `apply` with each client frame (`input`, `resize`), answering a bad
 * one with `{"type":"error","code":"invalid_frame"}`.
 */
export function onClientFrames(
  socket: WebSocket,
  sender: FrameSender,
  apply: (frame: ClientFrame) => void,
): void {
  socket.on('message', (data, isBinary) => {
    const frame = isBinary ? 'frames are JSON text' : parseFrame(rawText(data));
    if (typeof frame === 'string')
      return sender.frame({ type: 'error', code: 'invalid_frame', message: frame });
    apply(frame);
  });
}

/**
 * Relays a stream of the agent to one client socket: `output` frames with
 * base64 data, flow control both ways, `exit` (terminal) or `end` (logs)
 * when the stream ends, and a detach when the client goes.
 */
export function relay(
  socket: WebSocket,
  open: (
    handlers: RelayHandlers,
  ) => Promise<{ stream: PeerStream; ready: Record<string, unknown> }>,
  endType: 'exit' | 'end',
): void {
  let stream: PeerStream | null = null;
  const early: ClientFrame[] = [];
  const sender = new FrameSender(socket, {
    pause: () => stream?.pause(),
    resume: () => stream?.resume(),
  });
  const apply = (frame: ClientFrame) => {
    if (frame.type === 'input') stream?.input(Buffer.from(frame.data, 'base64'));
    else stream?.resize(frame.cols, frame.rows);
  };
  onClientFrames(socket, sender, (frame) => {
    if (stream === null) early.push(frame);
    else apply(frame);
  });
  socket.on('close', () => stream?.close());
  open({
    onData: (bytes, channel) => sender.output(bytes.toString('base64'), channel),
    onBase64: (base64, channel) => sender.output(base64, channel),
    onEnd: (end) => {
      sender.frame({
        type: endType,
        exitCode: end.exitCode ?? null,
        ...(end.error ? { error: end.error } : {}),
      });
      sender.close(1000, endType);
    },
  }).then(
    (opened) => {
      stream = opened.stream;
      if (!sender.open) return stream.close();
      sender.ready(opened.ready);
      for (const frame of early.splice(0)) apply(frame);
    },
    (error: unknown) => sender.fail(error),
  );
}
