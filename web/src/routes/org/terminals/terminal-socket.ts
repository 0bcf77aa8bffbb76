import { base64OfBinary, base64OfText, bytesOfBase64 } from './base64.js';

/** Where a terminal's connection stands, to be said in words. */
export type ConnectionState =
  | { state: 'connecting' }
  | { state: 'connected' }
  /** The program ended (`exit` frame): a worker session is gone, a shell closed. */
  | { state: 'ended'; exitCode: number | null }
  /** The connection closed; a worker session keeps running and can be attached again. */
  | { state: 'detached'; reason: string }
  /** The server refused the handshake or answered with an `error` frame. */
  | { state: 'refused'; reason: string };

export interface TerminalSocketHandlers {
  /** The program's bytes, in order; UTF-8 sequences may be split across calls. */
  output(bytes: Uint8Array): void;
  state(state: ConnectionState): void;
}

/** Words for a close code the server gave no reason for. */
function closeReason(event: CloseEvent): string {
  if (event.reason !== '') return event.reason;
  if (event.code === 1000) return 'the server closed the connection';
  if (event.code === 1001) return 'the server is going away';
  if (event.code === 1006) return 'the connection was lost';
  return `the connection closed (code ${event.code})`;
}

interface Frame {
  type?: unknown;
  data?: unknown;
  exitCode?: unknown;
  code?: unknown;
  message?: unknown;
}

function parseFrame(text: string): Frame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A terminal socket of the API (a worker's session, a service's shell) on
 * the app's own origin, so the browser sends the session cookie and an
 * `Origin` the server accepts. Frames are JSON text: `ready`, then `output`
 * (base64 bytes), `exit` when the program ends, `error` when refused; the
 * client sends `input` (base64) and `resize`.
 */
export class TerminalSocket {
  private readonly socket: WebSocket;
  private readonly queued: string[] = [];
  private opened = false;
  private settled = false;
  private leaving = false;

  constructor(
    path: string,
    private readonly handlers: TerminalSocketHandlers,
  ) {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.socket = new WebSocket(`${scheme}//${window.location.host}${path}`);
    handlers.state({ state: 'connecting' });
    this.socket.addEventListener('open', () => {
      this.opened = true;
      for (const text of this.queued.splice(0)) this.socket.send(text);
    });
    this.socket.addEventListener('message', (event) => {
      if (typeof event.data === 'string') this.receive(event.data);
    });
    this.socket.addEventListener('close', (event) => this.closed(event));
  }

  private receive(text: string): void {
    const frame = parseFrame(text);
    if (frame === undefined) return;
    if (frame.type === 'output' && typeof frame.data === 'string') {
      this.handlers.output(bytesOfBase64(frame.data));
    } else if (frame.type === 'ready') {
      this.handlers.state({ state: 'connected' });
    } else if (frame.type === 'exit') {
      this.settle({
        state: 'ended',
        exitCode: typeof frame.exitCode === 'number' ? frame.exitCode : null,
      });
    } else if (frame.type === 'error' && frame.code !== 'invalid_frame') {
      const message = typeof frame.message === 'string' ? frame.message : String(frame.code);
      this.settle({ state: 'refused', reason: message });
    }
  }

  /** The last word on this connection: later frames and the close change nothing. */
  private settle(state: ConnectionState): void {
    if (this.settled) return;
    this.settled = true;
    this.handlers.state(state);
  }

  private closed(event: CloseEvent): void {
    if (this.leaving) return;
    // A refused handshake reaches a browser as a bare 1006: the HTTP answer is hidden from pages.
    if (event.code === 1006 && !this.opened) {
      this.settle({
        state: 'refused',
        reason: 'the server refused the connection or could not be reached',
      });
    } else {
      this.settle({ state: 'detached', reason: closeReason(event) });
    }
  }

  private send(frame: Record<string, unknown>): void {
    const text = JSON.stringify(frame);
    if (this.socket.readyState === WebSocket.CONNECTING) this.queued.push(text);
    else if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /** Typed or pasted text (UTF-8). */
  input(text: string): void {
    this.send({ type: 'input', data: base64OfText(text) });
  }

  /** Bytes as a binary string (xterm's mouse reports). */
  binary(data: string): void {
    this.send({ type: 'input', data: base64OfBinary(data) });
  }

  resize(cols: number, rows: number): void {
    this.send({ type: 'resize', cols, rows });
  }

  /** Closes it from this side (a worker session detaches; a shell ends); no state follows. */
  close(): void {
    this.leaving = true;
    this.socket.close(1000, 'detached');
  }
}
