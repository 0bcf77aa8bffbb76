import { subscribe } from '../../db/listen.js';
import type { AppContext } from '../../module.js';
import type { ServiceAccessSettings } from '../services/access-settings.js';

/** The notification the access triggers send (see the migration); it only frees memory early. */
export const ACCESS_CHANNEL = 'sparrow_access_revoked';

/** Limit 4 of the spec: a granted decision is kept at most this long, even at the same version. */
export const GRANT_TTL_MS = 10_000;

/** How many grants (or services' settings) an app keeps at most; past it, the oldest go. */
const MAX_ENTRIES = 10_000;

interface Versioned<T> {
  value: T;
  orgId: string;
  version: number;
  expiresAt: number;
}

/**
 * One app's memory of granted decisions, keyed by credential hash and
 * service, and of services' access settings. An entry is used only at the
 * organization's current access version (read by the caller on each
 * request) and before its expiry; denials are never stored. A
 * `sparrow_access_revoked` notification drops the organization's entries.
 */
export class GrantCache {
  private readonly grants = new Map<string, Versioned<string | null>>();
  private readonly settings = new Map<string, Versioned<ServiceAccessSettings>>();
  private listening = false;

  /** Drops an organization's entries on each revocation notice, from the first call on. */
  listen(ctx: AppContext): void {
    if (this.listening) return;
    this.listening = true;
    subscribe(
      ctx.listener,
      ACCESS_CHANNEL,
      (payload) => this.evict(payload),
      (error) => ctx.log.warn({ err: error }, 'access notifications unavailable'),
    );
  }

  grant(key: string, orgId: string, version: number): Versioned<string | null> | undefined {
    return fresh(this.grants, key, orgId, version);
  }

  /** Remembers a grant (`userId`: the person it acts for, null for an org key). */
  remember(
    key: string,
    orgId: string,
    version: number,
    userId: string | null,
    until = Date.now() + GRANT_TTL_MS,
  ): void {
    put(this.grants, key, {
      value: userId,
      orgId,
      version,
      expiresAt: Math.min(until, Date.now() + GRANT_TTL_MS),
    });
  }

  serviceSettings(serviceId: string, orgId: string, version: number) {
    return fresh(this.settings, serviceId, orgId, version)?.value;
  }

  rememberSettings(settings: ServiceAccessSettings, version: number): void {
    put(this.settings, settings.id, {
      value: settings,
      orgId: settings.orgId,
      version,
      expiresAt: Date.now() + GRANT_TTL_MS,
    });
  }

  /** Drops an organization's entries; every entry when `orgId` is empty or null. */
  evict(orgId: string | null): void {
    for (const map of [this.grants, this.settings] as Map<string, Versioned<unknown>>[]) {
      if (orgId === null || orgId === '') map.clear();
      else for (const [key, entry] of map) if (entry.orgId === orgId) map.delete(key);
    }
  }

  /** How many grants are held (whatever their version). */
  get grantCount(): number {
    return this.grants.size;
  }
}

function fresh<T>(
  map: Map<string, Versioned<T>>,
  key: string,
  orgId: string,
  version: number,
): Versioned<T> | undefined {
  const entry = map.get(key);
  if (entry === undefined) return undefined;
  if (entry.orgId !== orgId || entry.version !== version || entry.expiresAt <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return entry;
}

function put<T>(map: Map<string, Versioned<T>>, key: string, entry: Versioned<T>): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, entry);
}

/** The app's grant cache (built with the app, `runtime.ts`), listening for revocations from its first use. */
export function grantCacheOf(ctx: AppContext): GrantCache {
  ctx.grants.listen(ctx);
  return ctx.grants;
}
