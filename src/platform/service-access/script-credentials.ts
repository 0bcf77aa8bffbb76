import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_PREFIX } from '../api-keys/service.js';

/** The header scripts send their API key in (Authentication 8, preferred to a bearer). */
export const SERVICE_TOKEN_HEADER = 'X-Service-Token';

const KEY_SHAPE = /^spk_[A-Za-z0-9_-]{8,512}$/;
/** Platform session tokens (`ses_`): never forwarded to a container, never accepted by one. */
const SESSION_SHAPE = /^ses_[A-Za-z0-9_-]{8,512}$/;

/**
 * What a request carries for a script's access, and the headers to take
 * out before it reaches the container: `X-Service-Token` always; the
 * `Authorization` header only when it holds a platform credential (an
 * `spk_` key or a `ses_` session token): any other bearer is the
 * service's own business and is forwarded unchanged.
 */
export type ScriptCredential = { remove: string[] } & (
  | { kind: 'key'; token: string }
  | { kind: 'session' }
  | { kind: 'malformed' }
  | { kind: 'none' }
);

export function readScriptCredential(headers: IncomingHttpHeaders): ScriptCredential {
  const header = headers['x-service-token'];
  const bearer = /^Bearer[ ]+(\S+)[ ]*$/i.exec(headers.authorization ?? '')?.[1];
  const platformBearer =
    bearer !== undefined && (KEY_SHAPE.test(bearer) || SESSION_SHAPE.test(bearer));
  const remove = [
    ...(header === undefined ? [] : ['x-service-token']),
    ...(platformBearer ? ['authorization'] : []),
  ];
  if (header !== undefined) {
    const token = typeof header === 'string' ? header.trim() : undefined;
    if (token === undefined || !KEY_SHAPE.test(token) || !token.startsWith(API_KEY_PREFIX)) {
      return { kind: 'malformed', remove };
    }
    return { kind: 'key', token, remove };
  }
  if (bearer !== undefined && KEY_SHAPE.test(bearer)) return { kind: 'key', token: bearer, remove };
  if (platformBearer) return { kind: 'session', remove };
  return { kind: 'none', remove };
}
