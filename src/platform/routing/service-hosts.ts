import type { Config } from '../../config.js';
import { hostName } from './hosts.js';

/** The host a service answers at on the service domain: `svc-{serviceId}.{SERVICE_DOMAIN}`. */
export function serviceHost(config: Config, serviceId: string): string {
  return `svc-${serviceId}.${config.serviceUrls.domain}`;
}

/** The URL of a path on a service's host (its `svc-` host or custom domain), as browsers reach it. */
export function serviceUrlOn(config: Config, host: string, path: string): string {
  const { scheme, port } = config.serviceUrls;
  return `${scheme}://${hostName(host) ?? host}${port === null ? '' : `:${port}`}${path}`;
}

/**
 * The URL to send a browser back to after sign-in, when it is an http(s)
 * URL on one of these hosts (the service's own: its svc- host and its
 * verified custom domain); undefined otherwise, so that the sign-in cannot
 * be turned into a redirect to anywhere else.
 */
export function checkedReturnUrl(raw: string, hosts: readonly string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  const name = hostName(url.host);
  if (name === null || !hosts.includes(name)) return undefined;
  return url;
}
