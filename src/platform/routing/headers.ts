import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Headers of one hop only (RFC 9110 7.6.1), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function connectionTokens(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
}

/**
 * The request's headers as the service gets them: hop-by-hop ones and
 * `remove` (a platform credential) dropped, Host kept as the client sent it,
 * and X-Forwarded-For, -Proto and -Host set. Earlier forwarding headers are
 * kept and extended only when the server trusts its front proxy (TRUST_PROXY).
 */
export function forwardedRequestHeaders(
  request: IncomingMessage,
  remove: readonly string[],
  trustProxy: boolean,
): OutgoingHttpHeaders {
  const dropped = new Set([
    ...HOP_BY_HOP,
    ...connectionTokens(request.headers.connection),
    ...remove.map((name) => name.toLowerCase()),
  ]);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || dropped.has(name)) continue;
    if (name.startsWith('x-forwarded-') && !trustProxy) continue;
    headers[name] = value;
  }
  const client = request.socket.remoteAddress ?? '';
  const earlierFor = trustProxy ? request.headers['x-forwarded-for'] : undefined;
  headers['x-forwarded-for'] =
    earlierFor === undefined ? client : `${connectionTokens(earlierFor).join(', ')}, ${client}`;
  const encrypted = (request.socket as Partial<TLSSocket>).encrypted === true;
  const earlierProto = trustProxy ? request.headers['x-forwarded-proto'] : undefined;
  headers['x-forwarded-proto'] = earlierProto ?? (encrypted ? 'https' : 'http');
  const earlierHost = trustProxy ? request.headers['x-forwarded-host'] : undefined;
  headers['x-forwarded-host'] = earlierHost ?? request.headers.host ?? '';
  return headers;
}

/** The upstream's response headers (raw pairs, their case kept) without hop-by-hop ones. */
export function forwardedResponseHeaders(upstream: IncomingMessage, setCookie: readonly string[]) {
  const dropped = new Set([...HOP_BY_HOP, ...connectionTokens(upstream.headers.connection)]);
  const raw = upstream.rawHeaders;
  const headers: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] ?? '';
    if (!dropped.has(name.toLowerCase())) headers.push(name, raw[index + 1] ?? '');
  }
  for (const cookie of setCookie) headers.push('Set-Cookie', cookie);
  return headers;
}
