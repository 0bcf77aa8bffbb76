import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { activeCounts } from '../workers/repository.js';
import type { NodeRow } from './repository.js';
import { isOnline } from './service.js';

/** Some server process holds its agent (the jobs run there), and it is not draining. */
export function nodeAvailable(node: NodeRow): boolean {
  return node.draining_at === null && isOnline(node);
}

/**
 * What each node carries, for placement: its active workers and the live
 * replicas of services (every replica holds a place until it is removed).
 * `maxWorkers` bounds the sum.
 */
export async function nodeLoads(
  db: Database,
  nodeIds: readonly string[],
): Promise<Map<string, number>> {
  const loads = await activeCounts(db, nodeIds);
  if (nodeIds.length === 0) return loads;
  const replicas = await db
    .selectFrom('service_replicas')
    .select(['node_id', sql<string>`count(*)`.as('count')])
    .where('node_id', 'in', nodeIds)
    .where('state', '!=', 'stopped')
    .groupBy('node_id')
    .execute();
  for (const row of replicas)
    loads.set(row.node_id, (loads.get(row.node_id) ?? 0) + Number(row.count));
  return loads;
}

/** Whether the node has room for one more worker or replica over `load`. */
export function hasRoom(node: NodeRow, load: number): boolean {
  return node.max_workers === null || load < node.max_workers;
}
