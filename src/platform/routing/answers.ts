import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AgentRequestError } from '../../agent/peer.js';
import { AppError } from '../../http/errors.js';

/** An answer of the proxy itself (the service was not reached, or refused by its rules). */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  location?: string;
  setCookie?: string[];
  /** The connection closes after it (what follows the request on it cannot be trusted). */
  close?: boolean;
}

export const unavailable = (message: string): Refusal => ({
  status: 503,
  code: 'service_unavailable',
  message,
});

export const notFound = (host: string): Refusal => ({
  status: 404,
  code: 'service_not_found',
  message: `No service answers at ${host}`,
});

/** A request whose body cannot be passed on framed as the client framed it. */
export const unframed: Refusal = {
  status: 400,
  code: 'bad_request',
  message: 'Only a Content-Length or a Transfer-Encoding of exactly "chunked" can be passed on',
  close: true,
};

/** What a failure to reach the container is answered with. */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof AppError && error.code === 'node_offline') {
    return unavailable("The service's node is offline; try again later");
  }
  const detail =
    error instanceof AgentRequestError ? `${error.code}: ${error.message}` : 'connection failed';
  return {
    status: 502,
    code: 'service_unreachable',
    message: `The service's container could not be reached (${detail})`,
  };
}

function errorBody(refusal: Refusal): string {
  return JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
}

export function answer(response: ServerResponse, refusal: Refusal): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = errorBody(refusal);
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  };
  if (refusal.location !== undefined) headers.location = refusal.location;
  if (refusal.setCookie !== undefined) headers['set-cookie'] = refusal.setCookie;
  if (refusal.close === true) headers.connection = 'close';
  response.writeHead(refusal.status, headers);
  response.end(body);
}

/** The same answer written straight to an upgrade's socket, which is then closed. */
export function answerRaw(socket: Duplex, refusal: Refusal): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody(refusal);
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (refusal.location !== undefined) lines.push(`Location: ${refusal.location}`);
  for (const cookie of refusal.setCookie ?? []) lines.push(`Set-Cookie: ${cookie}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  closeWhenWritten(socket);
}

/** Destroys the socket once what was written to it is flushed (a half-open client may linger). */
export function closeWhenWritten(socket: Duplex): void {
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

export function rawHead(status: number, message: string | undefined, headers: readonly string[]) {
  const lines = [`HTTP/1.1 ${status} ${message ?? STATUS_CODES[status] ?? ''}`];
  for (let index = 0; index + 1 < headers.length; index += 2) {
    lines.push(`${headers[index]}: ${headers[index + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
