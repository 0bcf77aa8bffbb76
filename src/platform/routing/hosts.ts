import { isIP } from 'node:net';
import type { ServiceUrls } from '../../config.js';

const SERVICE_LABEL = /^svc-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The Host header's name: lower case, without its port or a trailing dot; null when unusable. */
export function hostName(header: string | undefined): string | null {
  if (header === undefined || header === '' || header.length > 300) return null;
  let name = header.toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    return end < 0 ? null : name.slice(0, end + 1);
  }
  const colon = name.indexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name === '' ? null : name;
}

/** The service id of `svc-{serviceId}.{domain}`, or null for any other name. */
export function serviceIdOfHost(name: string, domain: string): string | null {
  if (!name.endsWith(`.${domain}`)) return null;
  const label = name.slice(0, name.length - domain.length - 1);
  return SERVICE_LABEL.exec(label)?.[1] ?? null;
}

/**
 * Whether a name could be some service's custom domain: a dotted name that is
 * not an address, not under `localhost`, and not one of the server's own.
 */
export function mayBeCustomDomain(name: string, own: ReadonlySet<string>): boolean {
  if (!name.includes('.') || name.startsWith('[') || isIP(name) !== 0) return false;
  if (name === 'localhost' || name.endsWith('.localhost')) return false;
  return !own.has(name);
}

/** `{scheme}://svc-{serviceId}.{domain}[:{port}]`, the URL a Service record shows. */
export function serviceUrl(urls: ServiceUrls, serviceId: string): string {
  const port = urls.port === null ? '' : `:${urls.port}`;
  return `${urls.scheme}://svc-${serviceId}.${urls.domain}${port}`;
}
