import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * How a request's body is delimited on the hop to the container. Node's
 * parser has already read the body by these rules (and refused a request
 * with both headers, or with differing lengths); the container must read it
 * by the same ones, whatever the method: Node's client does not frame a
 * GET's, DELETE's or OPTIONS's body on its own, and an unframed body is read
 * by the container as the next request on a shared tunnel.
 *
 * - `chunked`: the body is sent chunked again (Node's client chunks it once
 *   the header is set, for every method).
 * - `length`: the body is sent with its Content-Length.
 * - `none`: the request has no body.
 * - `refused`: any other transfer coding (`gzip, chunked`, `chunked, chunked`,
 *   an unknown one): it cannot be passed on as it was meant, so it is refused.
 */
export type Framing =
  | { kind: 'chunked' }
  | { kind: 'length'; length: number }
  | { kind: 'none' }
  | { kind: 'refused' };

export function requestFraming(headers: IncomingHttpHeaders): Framing {
  const coding = headers['transfer-encoding'];
  if (coding !== undefined) {
    return coding.trim().toLowerCase() === 'chunked' ? { kind: 'chunked' } : { kind: 'refused' };
  }
  const length = headers['content-length'];
  if (length === undefined) return { kind: 'none' };
  if (!/^\d{1,15}$/.test(length.trim())) return { kind: 'refused' };
  return { kind: 'length', length: Number(length.trim()) };
}

/** Sets the framing headers of the forwarded request (any the client sent are replaced). */
export function applyFraming(headers: OutgoingHttpHeaders, framing: Framing): void {
  delete headers['transfer-encoding'];
  delete headers['content-length'];
  if (framing.kind === 'chunked') headers['transfer-encoding'] = 'chunked';
  if (framing.kind === 'length') headers['content-length'] = String(framing.length);
}

/** Whether the request carries a body (so that it cannot be sent again once it is read). */
export function hasBody(framing: Framing): boolean {
  return framing.kind === 'chunked' || (framing.kind === 'length' && framing.length > 0);
}
