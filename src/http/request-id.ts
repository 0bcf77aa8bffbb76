import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's (or proxy's) request id when it is sane; otherwise makes one. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : randomUUID();
}
