import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose value is a credential, by name (compared without
 * case): node tokens on the agent link, invitation tokens, OAuth codes and
 * tokens, private-service sign-in codes, and the usual spellings of keys,
 * secrets and signatures. A name ending in `token`, `secret`, `password` or
 * `_key` counts too, so a new one is covered without an edit here.
 */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'client_secret',
  'key',
  'apikey',
  'api_key',
  'password',
  'secret',
  'session',
  'signature',
  'sig',
]);

const CREDENTIAL_SUFFIX = /(token|secret|password|_key)$/i;

export const REDACTED = '[REDACTED]';

function isCredentialParam(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as sent.
  }
  const lower = name.toLowerCase();
  return CREDENTIAL_PARAMS.has(lower) || CREDENTIAL_SUFFIX.test(lower);
}

/**
 * The request target with the value of every credential query parameter
 * replaced by `[REDACTED]`; the path and the other parameters are kept as
 * sent.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isCredentialParam(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

/**
 * The `req` of every request log line (Fastify's own serializer, with the
 * URL redacted): the one place a request is written to the log, so no route
 * can forget to hide a token that came in its query string.
 */
export function serializeRequest(request: FastifyRequest): {
  method: string;
  url: string;
  version?: string;
  host: string;
  remoteAddress: string;
  remotePort?: number;
} {
  const version = request.headers['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
