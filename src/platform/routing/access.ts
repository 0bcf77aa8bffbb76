import type { IncomingHttpHeaders } from 'node:http';
import type { AppContext } from '../../module.js';

/** What the proxy does with a request for a service, once its access rules have spoken. */
export type AccessDecision =
  /** Forward it, without these request headers (a platform credential meant for us). */
  | { kind: 'allow'; removeHeaders: string[]; setCookie?: string[] }
  /** Answer `{error: {code, message}}` with this status. */
  | { kind: 'deny'; status: number; code: string; message: string }
  /** Answer 302 to `location` (a browser sent to sign in). */
  | { kind: 'redirect'; location: string; setCookie?: string[] };

/** A service as routing sees it; `host` is the name the request came on (no port). */
export interface RoutedService {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
  host: string;
}

/**
 * The access rule of a service's URL, asked before every proxied request
 * and upgrade. Public services let everything through; a private one is
 * refused until private access lands (its own issue replaces this body).
 */
export async function checkServiceAccess(
  _ctx: AppContext,
  service: RoutedService,
  _request: { method: string; url: string; headers: IncomingHttpHeaders },
): Promise<AccessDecision> {
  if (service.accessControl === 'public') return { kind: 'allow', removeHeaders: [] };
  return {
    kind: 'deny',
    status: 403,
    code: 'service_access_denied',
    message: 'The service is private',
  };
}
