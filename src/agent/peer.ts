import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import type { Logger } from './dispatcher.js';
import { BinaryKind, binaryOf, decodeBinary, encodeBinary } from './protocol/binary.js';
import { checkResult, decodeAgentMessage, encodeMessage } from './protocol/codec.js';
import {
  type AgentMessage,
  type Channel,
  CloseCodes,
  type ErrorPayload,
  type HelloMessage,
  PROTOCOL_VERSION,
  type ServerMessage,
} from './protocol/messages.js';
import type {
  MethodName,
  ParamsOf,
  ResultOf,
  StreamMethodName,
  UnaryMethodName,
} from './protocol/methods.js';
import { rawText } from './ws-text.js';

/** An agent answered a request with an error, or never answered. */
export class AgentRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentRequestError';
  }
}

export interface StreamEnd {
  exitCode?: number | null;
  error?: ErrorPayload;
}

export interface PeerStreamHandlers {
  onData(bytes: Buffer, channel?: Channel): void;
  /**
   * When given, called instead of `onData` with the data still in base64, as
   * it came (checked): a relay that sends base64 on skips a decode and an encode.
   */
  onBase64?(data: string, channel?: Channel): void;
  onEnd(end: StreamEnd): void;
  /** The agent asks to stop sending `input` (its target reads slowly) until `onInputResume`. */
  onInputPause?(): void;
  onInputResume?(): void;
}

/** A stream the server opened on the agent: terminal input and resize, and detach. */
export interface PeerStream {
  readonly id: string;
  input(bytes: Buffer): void;
  resize(cols: number, rows: number): void;
  /** Flow control: the agent stops reading the source until `resume`; nothing is lost. */
  pause(): void;
  resume(): void;
  close(): void;
}

export interface AgentPeerOptions {
  nodeId: string;
  requestTimeoutMs?: number;
  helloTimeoutMs?: number;
  /** A ping this often; no pong by the next one means the agent is gone. */
  heartbeatMs?: number;
  log?: Logger;
}

/**
 * Frames of the agent for requests another server process sent through this
 * connection (see `relay`): they carry the relay's prefix in their ids.
 */
export type RelaySink = (message: RelayedMessage) => void;
export type RelayedMessage = Extract<AgentMessage, { id: string }>;

interface Pending {
  method: MethodName;
  resolve(result: unknown): void;
  reject(error: AgentRequestError): void;
  timer: NodeJS.Timeout;
}

/**
 * The server's side of one agent connection: waits for the hello, answers
 * with a welcome, sends typed requests and checks every answer against the
 * method's result schema, and routes stream frames. Events: `inventory`
 * (an InventoryMessage), `close` (code, reason).
 */
export class AgentPeer extends EventEmitter {
  readonly hello: Promise<HelloMessage>;
  private readonly pending = new Map<string, Pending>();
  private readonly streams = new Map<string, PeerStreamHandlers>();
  private nextId = 1;
  private nextRelay = 1;
  private readonly relays = new Map<string, RelaySink>();
  private closed = false;
  /** The agent's hello offered binary stream messages: input goes to it that way. */
  private binaryInput = false;
  private readonly log: Logger;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: AgentPeerOptions,
  ) {
    super();
    this.log = options.log ?? (() => {});
    let greet: (hello: HelloMessage) => void = () => {};
    let refuse: (error: AgentRequestError) => void = () => {};
    this.hello = new Promise((resolve, reject) => {
      greet = resolve;
      refuse = reject;
    });
    // Nobody may be waiting on the hello yet; a failed one must not crash the process.
    this.hello.catch(() => {});
    const helloTimer = setTimeout(() => {
      refuse(new AgentRequestError('hello_timeout', 'the agent sent no hello'));
      this.close(CloseCodes.protocolError, 'no hello');
    }, options.helloTimeoutMs ?? 15_000);

    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, options.heartbeatMs ?? 30_000);
    socket.on('pong', () => {
      alive = true;
    });

    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.binaryMessage(binaryOf(data));
      const decoded = decodeAgentMessage(rawText(data));
      if (!decoded.ok) return this.log('warn', `invalid message from agent: ${decoded.error}`);
      const message = decoded.value;
      if ('id' in message && this.relayed(message)) return;
      switch (message.type) {
        case 'hello':
          clearTimeout(helloTimer);
          if (message.protocol !== PROTOCOL_VERSION) {
            refuse(new AgentRequestError('protocol_mismatch', `protocol ${message.protocol}`));
            return this.close(CloseCodes.protocolError, `protocol ${PROTOCOL_VERSION} expected`);
          }
          this.binaryInput = message.binaryFrames === true;
          this.send({
            type: 'welcome',
            nodeId: options.nodeId,
            serverTime: new Date().toISOString(),
            ...(this.binaryInput ? { binaryFrames: true } : {}),
          });
          return greet(message);
        case 'response':
          return this.settle(message.id, message.ok ? { result: message.result } : message);
        case 'stream.data': {
          const handlers = this.streams.get(message.id);
          if (handlers?.onBase64 !== undefined) {
            return handlers.onBase64(message.data, message.channel);
          }
          return handlers?.onData(Buffer.from(message.data, 'base64'), message.channel);
        }
        case 'stream.end': {
          const handlers = this.streams.get(message.id);
          this.streams.delete(message.id);
          const { type: _type, id: _id, ...end } = message;
          return handlers?.onEnd(end);
        }
        case 'stream.pause':
          return this.streams.get(message.id)?.onInputPause?.();
        case 'stream.resume':
          return this.streams.get(message.id)?.onInputResume?.();
        case 'inventory':
          return this.emit('inventory', message);
      }
    });
    socket.on('close', (code, reason) => {
      this.closed = true;
      clearTimeout(helloTimer);
      clearInterval(heartbeat);
      const gone = new AgentRequestError('agent_disconnected', 'the agent disconnected');
      refuse(gone);
      for (const [id, pending] of this.pending) {
        clearTimeout(pending.timer);
        pending.reject(gone);
        this.pending.delete(id);
      }
      for (const handlers of this.streams.values()) {
        handlers.onEnd({ error: { code: gone.code, message: gone.message } });
      }
      this.streams.clear();
      this.emit('close', code, reason.toString());
    });
  }

  /** Stream bytes the agent sent as a binary message (`binary.ts`). */
  private binaryMessage(data: Buffer): void {
    const frame = decodeBinary(data);
    if (frame === null || frame.kind !== BinaryKind.data) {
      this.log('warn', 'agent sent an invalid binary message; ignored');
      return;
    }
    const { id, payload } = frame;
    if (id.includes('.')) {
      // A relay speaks JSON: its frames go on as they would have come.
      this.relayed({ type: 'stream.data', id, data: payload.toString('base64') });
      return;
    }
    const handlers = this.streams.get(id);
    if (handlers?.onBase64 !== undefined) handlers.onBase64(payload.toString('base64'));
    else handlers?.onData(payload);
  }

  /** Hands a frame whose id bears a relay's prefix to that relay, without the prefix. */
  private relayed(message: RelayedMessage): boolean {
    const dot = message.id.indexOf('.');
    if (dot < 0) return false;
    const sink = this.relays.get(message.id.slice(0, dot));
    if (sink === undefined) return true;
    sink({ ...message, id: message.id.slice(dot + 1) });
    return true;
  }

  /**
   * Lets another server process use this agent: `send` passes its frames on
   * (ids prefixed, so they never meet this process's own), and the agent's
   * answers to them go to `sink` with the ids as they were sent.
   */
  relay(sink: RelaySink): { send(message: ServerMessage): void; close(): void } {
    const prefix = `x${this.nextRelay++}`;
    this.relays.set(prefix, sink);
    return {
      send: (message) => {
        if (message.type === 'welcome' || !this.relays.has(prefix)) return;
        this.send({ ...message, id: `${prefix}.${message.id}` });
      },
      close: () => {
        this.relays.delete(prefix);
      },
    };
  }

  get connected(): boolean {
    return !this.closed;
  }

  /** Bytes handed to the link and not yet sent: what a writer should let drain before more. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  private send(message: ServerMessage): void {
    if (!this.closed) this.socket.send(encodeMessage(message));
  }

  private settle(id: string, outcome: { result: unknown } | { error: ErrorPayload }): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if ('error' in outcome) {
      pending.reject(new AgentRequestError(outcome.error.code, outcome.error.message));
    } else {
      pending.resolve(outcome.result);
    }
  }

  private async call(method: MethodName, params: unknown, id: string, timeoutMs?: number) {
    await this.hello;
    if (this.closed) throw new AgentRequestError('agent_disconnected', 'the agent disconnected');
    const limit = timeoutMs ?? this.options.requestTimeoutMs ?? 60_000;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AgentRequestError('agent_timeout', `${method} got no answer in ${limit} ms`));
      }, limit);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send({ type: 'request', id, method, params });
    });
  }

  /** Sends a request and resolves with its result, checked against the method's schema. */
  async request<M extends UnaryMethodName>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs?: number,
  ): Promise<ResultOf<M>> {
    const result = await this.call(method, params, `r${this.nextId++}`, timeoutMs);
    const checked = checkResult(method, result);
    if (!checked.ok) throw new AgentRequestError('invalid_result', `${method}: ${checked.error}`);
    return checked.value;
  }

  /** Opens a stream: its result, then frames to `handlers` until it ends or is closed. */
  async openStream<M extends StreamMethodName>(
    method: M,
    params: ParamsOf<M>,
    handlers: PeerStreamHandlers,
    timeoutMs?: number,
  ): Promise<{ result: ResultOf<M>; stream: PeerStream }> {
    const id = `s${this.nextId++}`;
    this.streams.set(id, handlers);
    let result: ResultOf<M>;
    try {
      const raw = await this.call(method, params, id, timeoutMs);
      const checked = checkResult(method, raw);
      if (!checked.ok) throw new AgentRequestError('invalid_result', `${method}: ${checked.error}`);
      result = checked.value;
    } catch (error) {
      this.streams.delete(id);
      throw error;
    }
    const stream: PeerStream = {
      id,
      input: (bytes) => {
        if (this.closed) return;
        if (this.binaryInput) {
          this.socket.send(encodeBinary(BinaryKind.input, id, bytes), { binary: true });
        } else this.send({ type: 'stream.input', id, data: bytes.toString('base64') });
      },
      resize: (cols, rows) => this.send({ type: 'stream.resize', id, cols, rows }),
      pause: () => this.send({ type: 'stream.pause', id }),
      resume: () => this.send({ type: 'stream.resume', id }),
      close: () => {
        if (this.streams.delete(id)) this.send({ type: 'stream.close', id });
      },
    };
    return { result, stream };
  }

  close(code = 1000, reason = ''): void {
    if (!this.closed) this.socket.close(code, reason);
  }
}
