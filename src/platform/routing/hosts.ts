import type { Config } from '../../config.js';

const SERVICE_LABEL = /^svc-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The host a service answers at on the service domain: `svc-{serviceId}.{SERVICE_DOMAIN}`. */
export function serviceHost(config: Config, serviceId: string): string {
  return `svc-${serviceId}.${config.serviceUrls.domain}`;
}

/** The URL of a path on a service's host (its `svc-` host or custom domain), as browsers reach it. */
export function serviceUrlOn(config: Config, host: string, path: string): string {
  const { scheme, port } = config.serviceUrls;
  return `${scheme}://${hostName(host)}${port === null ? '' : `:${port}`}${path}`;
}

/** A Host header without its port, in lower case, without a trailing dot. */
export function hostName(host: string): string {
  const bare = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return (bare ?? '').toLowerCase().replace(/\.$/, '');
}

/** The service id a host names on the service domain, if it is one of ours. */
export function serviceIdOfHost(config: Config, host: string): string | undefined {
  const name = hostName(host);
  const suffix = `.${config.serviceUrls.domain}`;
  if (!name.endsWith(suffix)) return undefined;
  return SERVICE_LABEL.exec(name.slice(0, -suffix.length))?.[1];
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
  if (!hosts.includes(hostName(url.host))) return undefined;
  return url;
}

/** A path (and query) of the same site: `/…`, never `//…` nor `/\…` (which browsers read as a host). */
export function isLocalPath(path: string): boolean {
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(path);
}
