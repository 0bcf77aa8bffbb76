import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { badRequest } from '../../http/errors.js';

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE is set:
 * loopback, private, link-local, carrier-grade NAT, multicast, reserved and
 * unspecified ranges of IPv4 and IPv6 (IPv4-mapped IPv6 addresses included).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True when the address is loopback, private or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks an endpoint URL when it is saved: http or https, no credentials, and
 * (unless private addresses are allowed) not a literal private address or a
 * `localhost` name. Names are checked again, resolved, at every request.
 */
export function checkEndpointUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('invalid_webhook_url', 'The URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw badRequest('invalid_webhook_url', 'The URL must be http or https');
  }
  if (url.username !== '' || url.password !== '') {
    throw badRequest('invalid_webhook_url', 'The URL must not carry credentials');
  }
  const host = hostOf(url).toLowerCase();
  const literal = isIP(host) !== 0;
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (!allowPrivate && ((literal && isPrivateAddress(host)) || local)) {
    throw badRequest(
      'webhook_url_not_allowed',
      'The URL points at a loopback or private address; this server does not send webhooks there',
    );
  }
  return url.toString();
}

export class BlockedAddressError extends Error {
  constructor(address: string) {
    super(`refused: ${address} is a loopback or private address`);
    this.name = 'BlockedAddressError';
  }
}

/** The literal address in a URL that may not be reached, or null. */
export function blockedLiteral(url: URL): string | null {
  const host = hostOf(url);
  return isIP(host) !== 0 && isPrivateAddress(host) ? host : null;
}

/**
 * A DNS lookup for outgoing connections that refuses private answers, so a
 * public name that resolves to a private address is refused at connect time
 * (no window between a check and the connection).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const list = addresses;
    const bad = list.find((entry) => isPrivateAddress(entry.address));
    if (bad !== undefined) {
      callback(new BlockedAddressError(bad.address), '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: typeof list) => void)(null, list);
      return;
    }
    const first = list[0];
    if (first === undefined) callback(new Error(`no address for ${hostname}`), '', 0);
    else callback(null, first.address, first.family);
  });
};
