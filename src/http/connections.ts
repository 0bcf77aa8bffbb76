import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { badRequest } from './errors.js';

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
}

/** The latest request of each socket, to tell a server at work from an idle client. */
const exchanges = new WeakMap<Socket, Exchange>();

/** Sockets whose refusal is written or waits its turn: the parser's later errors add nothing. */
const refused = new WeakSet<Socket>();

/**
 * The server, not the client, is the one to wait for: the request is in
 * whole and its answer not finished, or its body is not being read (a
 * handler that has not asked for it yet, or writing it more slowly than it
 * arrives).
 */
function isServerBusy(socket: Socket): boolean {
  const exchange = exchanges.get(socket);
  if (exchange === undefined || exchange.response.writableEnded) return false;
  return exchange.request.complete || exchange.request.readableFlowing !== true;
}

/** Makes the request its socket's latest, for the idle guard and the parser's refusals. */
function recordExchange(request: IncomingMessage, response: ServerResponse): void {
  exchanges.set(request.socket, { request, response });
}

/** An answer has begun on the socket and not ended: writing another would corrupt it. */
function isMidAnswer(socket: Socket): boolean {
  const response = exchanges.get(socket)?.response;
  return response?.headersSent === true && !response.writableEnded;
}

/** Writes an Error body straight to the socket, unless an answer is under way, then closes it. */
function answerAndClose(socket: Socket, code: ErrorCode, message: string, cause?: Error): void {
  const status = ERROR_CODES[code].status;
  if (socket.writable && !isMidAnswer(socket)) {
    const body = JSON.stringify({ error: { code, message } });
    // Closed once written out, so what was queued before it is not cut.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
        'Connection: close\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      () => socket.destroy(cause),
    );
    return;
  }
  socket.destroy(cause);
}

/** What an error of Node's HTTP parser (or its timers) is answered with. */
function describeClientError(code: string): { code: ErrorCode; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'The request headers are larger than allowed' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request was not received in time' };
    case 'HPE_INVALID_EOF_STATE':
      return {
        code: 'invalid_content_length',
        message: 'The connection closed before the whole body was received',
      };
    default:
      return { code: 'bad_request', message: 'The HTTP request is malformed' };
  }
}

/**
 * For fastify's `clientErrorHandler`: a request Node's HTTP parser refuses
 * (a bad request line, headers too large, a body cut by the client closing
 * its side, a header or request timeout) is answered in the Error schema
 * like any other.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: ConnectionError,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed) return;
  if (refused.has(socket)) return;
  refused.add(socket);
  const answer = describeClientError(error.code);
  this.log.debug({ err: error, code: answer.code }, 'client error');
  // A malformed request pipelined behind one received whole and still being
  // answered: that answer goes out first, then the refusal, in the order asked.
  const exchange = exchanges.get(socket);
  const pending = exchange?.response;
  if (exchange?.request.complete && pending !== undefined && !pending.writableEnded) {
    socket.pause();
    const refuse = () => answerAndClose(socket, answer.code, answer.message, error);
    pending.once('finish', refuse);
    pending.once('close', refuse);
    return;
  }
  answerAndClose(socket, answer.code, answer.message, error);
}

/**
 * The timeouts of the HTTP server (see `Config.http`). Node enforces the
 * headers and request timeouts on a timer; it runs often enough for the
 * shortest of them.
 */
export function httpServerOptions(config: Config) {
  const { idleTimeoutMs, keepAliveTimeoutMs, headersTimeoutMs, requestTimeoutMs } = config.http;
  const shortest = Math.min(headersTimeoutMs, requestTimeoutMs || headersTimeoutMs);
  return {
    connectionTimeout: idleTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    requestTimeout: requestTimeoutMs,
    http: {
      // Answered by `installHostGuard` in the Error schema, not by Node with an empty 400.
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(30_000, Math.floor(shortest / 4))),
    },
    clientErrorHandler,
  };
}

/**
 * Closes connections that stay idle for `HTTP_IDLE_TIMEOUT_MS`: opened with
 * nothing sent, or stalled in the middle of sending a request body the
 * server is reading (answered 408). A request received whole is left alone
 * however long its handler takes (a waiting exec), and `HTTP_REQUEST_TIMEOUT_MS`
 * bounds the rest; after the answer, the keep-alive timeout applies.
 * An upgraded WebSocket is out of the HTTP server's hands: no timeout
 * applies to it.
 */
export function installConnectionGuard(app: FastifyInstance): void {
  // First of the server's listeners, synchronously: a malformed request
  // pipelined behind this one is parsed before any hook of it runs.
  app.server.prependListener('request', recordExchange);
  // With a listener, Node leaves the decision to close a timed-out socket to it.
  app.server.on('timeout', (socket: Socket) => {
    if (isServerBusy(socket)) return;
    const exchange = exchanges.get(socket);
    if (exchange !== undefined && !exchange.response.writableEnded) {
      answerAndClose(socket, 'request_timeout', 'The request was not received in time');
      return;
    }
    socket.destroy();
  });
}

/**
 * HTTP/1.1 requires the Host header (RFC 9112, 3.2). Node refuses a request
 * without one with an empty 400 of its own; it is let through
 * (`requireHostHeader: false`) and refused here, before credentials are
 * read, with 400 `host_required` in the Error schema. HTTP/1.0 needs none.
 */
export function installHostGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    const needsHost = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    if (
      needsHost &&
      request.headers.host === undefined &&
      request.headers[':authority'] === undefined
    ) {
      throw badRequest('host_required', 'An HTTP/1.1 request must carry the Host header');
    }
  });
}

/** How long, and how much, a lingering close reads before it closes (see `lingerOnClose`). */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A lingering close, for an answer sent before the request's body was read
 * in whole (413, or a refusal before the body): Node closes such a
 * connection as soon as the answer is written, and the client, still
 * sending, gets a reset (EPIPE) that discards the answer it had not read
 * yet. Instead the answer is followed by a FIN, and what the client still
 * sends is read and dropped, for at most LINGER_MS or LINGER_BYTES, until it
 * closes its side; then the socket is closed.
 */
export function lingerOnClose(request: IncomingMessage): void {
  if (request.complete) return;
  const socket = request.socket;
  // Node's server calls `destroySoon` once a `Connection: close` answer is written.
  Object.defineProperty(socket, 'destroySoon', {
    configurable: true,
    value: () => {
      let read = 0;
      const close = () => socket.destroy();
      const timer = setTimeout(close, LINGER_MS);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      socket.once('end', close);
      socket.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > LINGER_BYTES) close();
      });
      socket.end();
      socket.resume();
    },
  });
}
