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

/**
 * What a `Connection` header may never take out: the request's framing and
 * its Host (the framing is set by the proxy itself, see `framing.ts`).
 */
const KEPT = new Set(['content-length', 'transfer-encoding', 'host']);

function connectionTokens(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== '');
}

/**
 * A Cookie header without the cookies named in `names`, the others kept as
 * sent and in order; undefined when none is left.
 */
export function withoutCookies(header: string, names: ReadonlySet<string>): string | undefined {
  const kept = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => {
      if (pair === '') return false;
      const equals = pair.indexOf('=');
      return !names.has((equals < 0 ? pair : pair.slice(0, equals)).trim());
    });
  return kept.length === 0 ? undefined : kept.join('; ');
}

/**
 * The request's headers as the service gets them: hop-by-hop ones and
 * `remove` (a platform credential) dropped, the cookies in `cookies` (the
 * platform's own) taken out of Cookie, Host kept as the client sent it,
 * and X-Forwarded-For, -Proto and -Host set. Earlier forwarding headers are
 * kept and extended only when the server trusts its front proxy (TRUST_PROXY).
 * Content-Length is kept whatever `Connection` names; the caller sets the
 * framing (`applyFraming`).
 */
export function forwardedRequestHeaders(
  request: IncomingMessage,
  remove: readonly string[],
  trustProxy: boolean,
  cookies: ReadonlySet<string> = new Set(),
): OutgoingHttpHeaders {
  const named = connectionTokens(request.headers.connection).filter((name) => !KEPT.has(name));
  const dropped = new Set([...HOP_BY_HOP, ...named, ...remove.map((name) => name.toLowerCase())]);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || dropped.has(name)) continue;
    if (name.startsWith('x-forwarded-') && !trustProxy) continue;
    if (name === 'cookie' && typeof value === 'string') {
      const kept = withoutCookies(value, cookies);
      if (kept !== undefined) headers.cookie = kept;
      continue;
    }
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
