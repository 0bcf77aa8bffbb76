import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerRaw, closeWhenWritten, type Refusal, rawHead, refusalOf } from './answers.js';
import { forwardedResponseHeaders } from './headers.js';

const timedOut: Refusal = {
  status: 408,
  code: 'request_timeout',
  message: 'The request was not received in time',
};

export interface UpgradeTimeouts {
  /** HTTP_IDLE_TIMEOUT_MS: no byte either way for this long while the client owes some. */
  idleMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the request's body in whole within this long (0: no limit). */
  requestMs: number;
}

/**
 * One upgrade request on a service's host, until the service answers it.
 * Node's server leaves an upgrade's socket to its listener with no timeout
 * at all, and the body (framed by Content-Length: a chunked one is refused
 * before) unread in `head` and the socket: here the body is passed on to the
 * service, what follows it waits for a `101`, and the HTTP timeouts apply
 * until then (a service at work on a whole request is waited for, as an API
 * handler is). A declined upgrade's answer is passed back, then the
 * connection closes.
 */
export class UpgradeExchange {
  /** Body bytes still to come from the client. */
  private owed: number;
  /** What came after the body: the upgraded protocol's first bytes, sent only after a 101. */
  private held: Buffer;
  private first: Buffer;
  private answering = false;
  private upgraded = false;
  private requestTimer: NodeJS.Timeout | undefined;
  private readonly net: Socket | undefined;
  private readonly onIdle = () => this.idle();

  constructor(
    private readonly socket: Duplex,
    head: Buffer,
    bodyLength: number,
    timeouts: UpgradeTimeouts,
  ) {
    this.first = head.subarray(0, bodyLength);
    this.held = head.subarray(bodyLength);
    this.owed = bodyLength - this.first.length;
    this.net = socket instanceof Socket ? socket : undefined;
    this.net?.setTimeout(timeouts.idleMs);
    this.net?.on('timeout', this.onIdle);
    if (timeouts.requestMs > 0) {
      this.requestTimer = setTimeout(() => {
        if (this.owed > 0 && !this.answering) answerRaw(socket, timedOut);
      }, timeouts.requestMs);
    }
    socket.on('close', () => this.stopTimers());
  }

  private idle(): void {
    // A whole request the service has not answered yet is waited for.
    if (this.owed === 0 && !this.answering) return;
    if (this.answering) this.socket.destroy();
    else answerRaw(this.socket, timedOut);
  }

  private stopTimers(): void {
    clearTimeout(this.requestTimer);
    this.net?.off('timeout', this.onIdle);
    this.net?.setTimeout(0);
  }

  refuse(refusal: Refusal): void {
    this.stopTimers();
    answerRaw(this.socket, refusal);
  }

  /** Sends the request (`headers` already forwarded ones) and its body through `tunnel`. */
  forward(
    request: IncomingMessage,
    tunnel: Duplex,
    headers: OutgoingHttpHeaders,
    setCookie: readonly string[],
  ): void {
    const { socket } = this;
    if (socket.destroyed) return void tunnel.destroy();
    const upstream = httpRequest({
      method: request.method,
      path: request.url,
      headers,
      setHost: false,
      createConnection: () => tunnel,
    });
    socket.on('close', () => {
      if (!this.upgraded) tunnel.destroy();
    });
    const onData = (chunk: Buffer) => {
      const part = chunk.subarray(0, this.owed);
      this.owed -= part.length;
      if (this.owed > 0) {
        if (!upstream.write(part)) {
          socket.pause();
          upstream.once('drain', () => {
            if (this.owed > 0) socket.resume();
          });
        }
        return;
      }
      socket.off('data', onData);
      socket.pause();
      this.held = Buffer.concat([this.held, chunk.subarray(part.length)]);
      clearTimeout(this.requestTimer);
      upstream.end(part);
    };
    upstream.on('upgrade', (incoming, upSocket, upHead) => {
      this.upgraded = true;
      this.stopTimers();
      socket.off('data', onData);
      const raw = [...incoming.rawHeaders];
      for (const cookie of setCookie) raw.push('Set-Cookie', cookie);
      socket.write(rawHead(101, incoming.statusMessage, raw));
      if (upHead.length > 0) socket.write(upHead);
      if (this.held.length > 0) upSocket.write(this.held);
      upSocket.on('error', () => socket.destroy());
      socket.on('error', () => upSocket.destroy());
      upSocket.on('close', () => socket.destroy());
      socket.on('close', () => upSocket.destroy());
      upSocket.pipe(socket);
      socket.pipe(upSocket);
    });
    upstream.on('response', (incoming) => {
      // The service declined the upgrade: its answer, then the connection closes.
      this.answering = true;
      const raw = forwardedResponseHeaders(incoming, setCookie);
      raw.push('Connection', 'close');
      socket.write(rawHead(incoming.statusCode ?? 502, incoming.statusMessage, raw));
      incoming.pipe(socket, { end: false });
      incoming.on('end', () => {
        tunnel.destroy();
        socket.end();
        closeWhenWritten(socket);
      });
      incoming.on('error', () => socket.destroy());
    });
    upstream.on('error', (error) => {
      tunnel.destroy();
      if (this.answering) socket.destroy();
      else this.refuse(refusalOf(error));
    });
    if (this.first.length > 0) upstream.write(this.first);
    if (this.owed === 0) {
      clearTimeout(this.requestTimer);
      upstream.end();
      return;
    }
    socket.on('data', onData);
    socket.resume();
  }
}
