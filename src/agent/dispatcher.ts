import { toErrorPayload } from './errors.js';
import type { StreamControl, StreamHandlers, UnaryHandlers } from './handlers.js';
import { BinaryKind, decodeBinary, encodeBinary } from './protocol/binary.js';
import { checkParams, decodeServerMessage } from './protocol/codec.js';
import type { AgentMessage, RequestMessage } from './protocol/messages.js';
import {
  isMethodName,
  methods,
  type StreamMethodName,
  type UnaryMethodName,
} from './protocol/methods.js';

export type Logger = (level: 'info' | 'warn' | 'error', message: string) => void;

function isStreamMethod(method: UnaryMethodName | StreamMethodName): method is StreamMethodName {
  return methods[method].stream;
}

/**
 * The agent's side of the protocol for one connection: validates what the
 * server sends, calls the handlers, answers, and runs the streams it opened.
 * Streams end with the connection; what they showed (terminal sessions,
 * commands) does not.
 */
export class Dispatcher {
  /** Open streams, each with the reasons it is paused for (the connection, the server). */
  private readonly streams = new Map<string, { control: StreamControl; pausedFor: Set<string> }>();
  private paused = false;
  private closed = false;
  /** The server's welcome agreed to binary stream messages. */
  private binary = false;

  constructor(
    private readonly unary: UnaryHandlers,
    private readonly streaming: StreamHandlers,
    private readonly send: (message: AgentMessage) => void,
    private readonly log: Logger,
    private readonly onWelcome: (nodeId: string) => void = () => {},
    /** Sends a binary message; without it, stream bytes always go as JSON. */
    private readonly sendBinary?: (frame: Buffer) => void,
  ) {}

  get openStreams(): number {
    return this.streams.size;
  }

  handle(text: string): void {
    const decoded = decodeServerMessage(text);
    if (!decoded.ok) {
      this.log('warn', `ignored an invalid message from the server: ${decoded.error}`);
      this.answerMalformedRequest(text, decoded.error);
      return;
    }
    const message = decoded.value;
    switch (message.type) {
      case 'welcome':
        this.binary = message.binaryFrames === true && this.sendBinary !== undefined;
        this.onWelcome(message.nodeId);
        return;
      case 'request':
        void this.request(message);
        return;
      case 'stream.input':
        this.streams.get(message.id)?.control.input(Buffer.from(message.data, 'base64'));
        return;
      case 'stream.resize':
        this.streams
          .get(message.id)
          ?.control.resize(message.cols, message.rows)
          .catch((error: unknown) => this.log('warn', `resize failed: ${String(error)}`));
        return;
      case 'stream.close':
        this.streams.get(message.id)?.control.close();
        this.streams.delete(message.id);
        return;
      case 'stream.pause':
        this.pause(message.id, 'server');
        return;
      case 'stream.resume':
        this.resume(message.id, 'server');
        return;
    }
  }

  /** A binary message from the server: a stream's input. */
  handleBinary(data: Buffer): void {
    const frame = decodeBinary(data);
    if (frame === null || frame.kind !== BinaryKind.input) {
      this.log('warn', 'ignored an invalid binary message from the server');
      return;
    }
    this.streams.get(frame.id)?.control.input(frame.payload);
  }

  private pause(id: string, reason: string): void {
    const stream = this.streams.get(id);
    if (stream === undefined || stream.pausedFor.has(reason)) return;
    stream.pausedFor.add(reason);
    if (stream.pausedFor.size === 1) stream.control.pause();
  }

  private resume(id: string, reason: string): void {
    const stream = this.streams.get(id);
    if (stream === undefined || !stream.pausedFor.delete(reason)) return;
    if (stream.pausedFor.size === 0) stream.control.resume();
  }

  /** A request with a usable id but a bad envelope still gets an answer. */
  private answerMalformedRequest(text: string, error: string): void {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null) return;
      if (!('type' in value) || value.type !== 'request') return;
      if (!('id' in value) || typeof value.id !== 'string' || value.id.length > 128) return;
      this.fail(value.id, 'invalid_request', error);
    } catch {
      // Not JSON: nothing to answer.
    }
  }

  private fail(id: string, code: string, message: string): void {
    this.send({ type: 'response', id, ok: false, error: { code, message } });
  }

  private async request(message: RequestMessage): Promise<void> {
    const { id, method } = message;
    if (!isMethodName(method)) return this.fail(id, 'unknown_method', `no method ${method}`);
    if (this.streams.has(id)) return this.fail(id, 'duplicate_id', `stream ${id} is open`);
    try {
      if (isStreamMethod(method)) await this.openStream(id, method, message.params);
      else await this.call(id, method, message.params);
    } catch (error) {
      this.send({ type: 'response', id, ok: false, error: toErrorPayload(error) });
    }
  }

  private async call<M extends UnaryMethodName>(id: string, method: M, raw: unknown) {
    const params = checkParams(method, raw);
    if (!params.ok) return this.fail(id, 'invalid_params', `${method}: ${params.error}`);
    const handler: UnaryHandlers[M] = this.unary[method];
    const result = await handler(params.value);
    this.send({ type: 'response', id, ok: true, result });
  }

  private async openStream<M extends StreamMethodName>(id: string, method: M, raw: unknown) {
    const params = checkParams(method, raw);
    if (!params.ok) return this.fail(id, 'invalid_params', `${method}: ${params.error}`);
    const handler: StreamHandlers[M] = this.streaming[method];
    const opened = await handler(params.value);
    this.send({ type: 'response', id, ok: true, result: opened.result });
    let ended = false;
    const control = opened.start({
      data: (bytes, channel) => {
        if (ended) return;
        if (this.binary && channel === undefined && this.sendBinary !== undefined) {
          return this.sendBinary(encodeBinary(BinaryKind.data, id, bytes));
        }
        const data = bytes.toString('base64');
        this.send(
          channel === undefined
            ? { type: 'stream.data', id, data }
            : { type: 'stream.data', id, data, channel },
        );
      },
      end: (end) => {
        if (ended) return;
        ended = true;
        this.streams.delete(id);
        this.send({ type: 'stream.end', id, ...end });
      },
      pauseInput: () => {
        if (!ended) this.send({ type: 'stream.pause', id });
      },
      resumeInput: () => {
        if (!ended) this.send({ type: 'stream.resume', id });
      },
    });
    if (ended) return;
    // The connection may have dropped while the stream was being opened.
    if (this.closed) return control.close();
    this.streams.set(id, { control, pausedFor: new Set() });
    if (this.paused) this.pause(id, 'connection');
  }

  /** The connection is backed up: stop reading what feeds the streams. */
  pauseAll(): void {
    this.paused = true;
    for (const id of this.streams.keys()) this.pause(id, 'connection');
  }

  resumeAll(): void {
    this.paused = false;
    for (const id of this.streams.keys()) this.resume(id, 'connection');
  }

  /** The connection is gone: detach every stream. */
  closeAll(): void {
    this.closed = true;
    for (const stream of this.streams.values()) stream.control.close();
    this.streams.clear();
  }
}
