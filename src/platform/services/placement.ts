import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { hasRoom, nodeAvailable, nodeLoads } from '../nodes/load.js';
import { lockPlacementNodes } from '../nodes/repository.js';
import { NODE_STALE_MS } from '../nodes/service.js';

/** No node can take a replica now. */
export class NoPlaceError extends Error {}

/**
 * Whether a node the organization may use is away but was heard from
 * lately: its agent is reconnecting (a server process restarted), so a
 * place may be found in a moment.
 */
export async function nodeReconnecting(db: Database, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
    .where('connected', '=', false)
    .where('draining_at', 'is', null)
    .where(
      'last_seen_at',
      '>',
      sql<Date>`now() - ${NODE_STALE_MS}::integer * interval '1 millisecond'`,
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The nodes `count` new replicas go to, spread like workers are placed:
 * each to the online, not draining node with the lightest load (workers and
 * replicas) and room under its `maxWorkers`, counting the replicas placed
 * before it. The candidates are locked: insert the replicas' rows with the
 * same handle. Throws when some replica has no place.
 */
export async function placeReplicas(db: Database, orgId: string, count: number): Promise<string[]> {
  const candidates = (await lockPlacementNodes(db, orgId)).filter(nodeAvailable);
  const loads = await nodeLoads(
    db,
    candidates.map((node) => node.id),
  );
  const placed: string[] = [];
  for (let i = 0; i < count; i++) {
    const chosen = candidates
      .filter((node) => hasRoom(node, loads.get(node.id) ?? 0))
      .sort((a, b) => (loads.get(a.id) ?? 0) - (loads.get(b.id) ?? 0))[0];
    if (chosen === undefined) {
      throw new NoPlaceError(
        `no node can take replica ${i + 1} of ${count}: none is online, not draining and with room`,
      );
    }
    placed.push(chosen.id);
    loads.set(chosen.id, (loads.get(chosen.id) ?? 0) + 1);
  }
  return placed;
}
