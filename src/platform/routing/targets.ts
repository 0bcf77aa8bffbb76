import { notify, subscribe } from '../../db/listen.js';
import type { Database } from '../../db/schema.js';
import type { AppContext } from '../../module.js';
import { activeReplicas, type ReplicaRow } from '../services/replicas.js';
import { type ServiceRoute, serviceIdOfDomain, serviceRoute } from './repository.js';

/** Payload: a service id whose routing changed (replicas switched, domain verified, access). */
export const ROUTES_CHANNEL = 'sparrow_service_routes';

/**
 * Tells every server process to read the service's targets again. Call it
 * with the transaction that switches them: the notification leaves at commit.
 */
export async function announceRoutes(db: Database, serviceId: string): Promise<void> {
  await notify(db, ROUTES_CHANNEL, serviceId);
}

export interface Target {
  route: ServiceRoute;
  replicas: ReplicaRow[];
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/** A cache bigger than this is dropped whole: names nobody routes must not grow it without end. */
const MAX_NAMES = 10_000;

/**
 * The services' targets as this process last read them: for at most `ttlMs`
 * (a lost notification heals that fast), dropped at once when a service's
 * routes are announced. Picks replicas round robin.
 */
export class RouteTable {
  private readonly targets = new Map<string, Cached<Target | null>>();
  private readonly domains = new Map<string, Cached<string | null>>();
  private readonly turns = new Map<string, number>();
  private unlisten: () => void = () => {};

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
  ) {}

  listen(ctx: AppContext): void {
    this.unlisten = subscribe(
      ctx.listener,
      ROUTES_CHANNEL,
      (serviceId) => this.invalidate(serviceId),
      (error) => ctx.log.warn({ err: error }, 'service routes: notifications unavailable'),
    );
  }

  stop(): void {
    this.unlisten();
  }

  /** Forgets a service (null: everything); domains are forgotten whole, as one may have moved. */
  invalidate(serviceId: string | null): void {
    if (serviceId === null) this.targets.clear();
    else this.targets.delete(serviceId);
    this.domains.clear();
  }

  private cached<T>(map: Map<string, Cached<T>>, key: string, load: () => Promise<T>) {
    const now = Date.now();
    const hit = map.get(key);
    if (hit !== undefined && now - hit.at < this.ttlMs) return hit.value;
    if (map.size >= MAX_NAMES) map.clear();
    const value = load();
    const entry = { at: now, value };
    map.set(key, entry);
    // A failed read is not kept.
    value.catch(() => {
      if (map.get(key) === entry) map.delete(key);
    });
    return value;
  }

  /** The service of a verified custom domain, or null. */
  serviceOfDomain(name: string): Promise<string | null> {
    return this.cached(this.domains, name, () => serviceIdOfDomain(this.db, name));
  }

  target(serviceId: string): Promise<Target | null> {
    return this.cached(this.targets, serviceId, async () => {
      const route = await serviceRoute(this.db, serviceId);
      if (route === null) return null;
      return { route, replicas: await activeReplicas(this.db, serviceId) };
    });
  }

  /** The next replica of the service's active ones, in turn. */
  pick(target: Target): ReplicaRow | undefined {
    const { replicas } = target;
    if (replicas.length === 0) return undefined;
    const turn = this.turns.get(target.route.id) ?? 0;
    this.turns.set(target.route.id, (turn + 1) % 1_000_000);
    return replicas[turn % replicas.length];
  }
}
