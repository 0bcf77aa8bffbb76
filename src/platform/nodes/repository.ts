import { type Selectable, sql } from 'kysely';
import type { NodeInfo } from '../../agent/protocol/methods.js';
import type { Database } from '../../db/schema.js';
import type { NodesTable } from './tables.js';

const nodeColumns = [
  'id',
  'org_id',
  'name',
  'public_address',
  'token_prefix',
  'max_workers',
  'draining_at',
  'connected',
  'last_seen_at',
  'agent_version',
  'info',
  'created_at',
  'updated_at',
] as const;

/** A node as read: every column but the token hash. */
export type NodeRow = Pick<Selectable<NodesTable>, (typeof nodeColumns)[number]>;

export async function insertNode(
  db: Database,
  node: Pick<
    NodeRow,
    'id' | 'org_id' | 'name' | 'public_address' | 'token_prefix' | 'max_workers'
  > & { token_hash: string },
): Promise<NodeRow> {
  return db.insertInto('nodes').values(node).returning(nodeColumns).executeTakeFirstOrThrow();
}

/** The organization's nodes and the shared ones, by name. */
export async function listNodes(db: Database, orgId: string): Promise<NodeRow[]> {
  return db
    .selectFrom('nodes')
    .select(nodeColumns)
    .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/**
 * The nodes a worker of the organization may go to (its own and the shared
 * ones, or only `nodeId`), locked until the transaction ends, in id order so
 * that two placements never wait on each other crosswise. Placement counts a
 * node's workers under this lock: concurrent spawns onto one node queue here
 * and each sees the workers the previous one committed.
 */
export async function lockPlacementNodes(
  db: Database,
  orgId: string,
  nodeId?: string,
): Promise<NodeRow[]> {
  let query = db
    .selectFrom('nodes')
    .select(nodeColumns)
    .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]));
  if (nodeId !== undefined) query = query.where('id', '=', nodeId);
  return query.orderBy('id').forUpdate().execute();
}

/** A node the organization may see (its own or a shared one). */
export async function findNode(
  db: Database,
  orgId: string,
  nodeId: string,
): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .select(nodeColumns)
    .where('id', '=', nodeId)
    .where((eb) => eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]))
    .executeTakeFirst();
}

export async function findNodeById(db: Database, nodeId: string): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').select(nodeColumns).where('id', '=', nodeId).executeTakeFirst();
}

export async function findNodeByTokenHash(
  db: Database,
  tokenHash: string,
): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .select(nodeColumns)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findSharedNode(db: Database, name: string): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .select(nodeColumns)
    .where('org_id', 'is', null)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function nameTaken(db: Database, orgId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('org_id', '=', orgId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function setToken(
  db: Database,
  nodeId: string,
  token: { token_hash: string; token_prefix: string },
): Promise<NodeRow> {
  return db
    .updateTable('nodes')
    .set({ ...token, updated_at: new Date() })
    .where('id', '=', nodeId)
    .returning(nodeColumns)
    .executeTakeFirstOrThrow();
}

export async function setDraining(
  db: Database,
  nodeId: string,
  draining: boolean,
): Promise<NodeRow> {
  return db
    .updateTable('nodes')
    .set({
      draining_at: draining ? sql<Date>`coalesce(draining_at, now())` : null,
      updated_at: new Date(),
    })
    .where('id', '=', nodeId)
    .returning(nodeColumns)
    .executeTakeFirstOrThrow();
}

export async function deleteNode(db: Database, nodeId: string): Promise<void> {
  await db.deleteFrom('nodes').where('id', '=', nodeId).execute();
}

/** The agent's hello reached this process (`processId`), which now holds its connection. */
export async function markConnected(
  db: Database,
  nodeId: string,
  info: NodeInfo,
  processId: string,
): Promise<void> {
  await db
    .updateTable('nodes')
    .set({
      connected: true,
      last_seen_at: new Date(),
      agent_version: info.agentVersion,
      info: JSON.stringify(info),
      agent_process_id: processId,
    })
    .where('id', '=', nodeId)
    .execute();
}

/**
 * The connection this process held closed. Unless another process holds the
 * agent by now (it reconnected there first), the node is disconnected.
 */
export async function markDisconnected(
  db: Database,
  nodeId: string,
  processId: string,
): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ connected: false, last_seen_at: new Date(), agent_process_id: null })
    .where('id', '=', nodeId)
    .where((eb) =>
      eb.or([eb('agent_process_id', 'is', null), eb('agent_process_id', '=', processId)]),
    )
    .execute();
}

/** Heartbeat of the agents this process holds. */
export async function touch(
  db: Database,
  nodeIds: readonly string[],
  processId: string,
): Promise<void> {
  if (nodeIds.length === 0) return;
  await db
    .updateTable('nodes')
    .set({ connected: true, last_seen_at: new Date(), agent_process_id: processId })
    .where('id', 'in', nodeIds)
    .execute();
}

/** These processes are gone: the agents they held are disconnected (no process holds them). */
export async function releaseAgentsOf(db: Database, processIds: readonly string[]): Promise<void> {
  if (processIds.length === 0) return;
  await db
    .updateTable('nodes')
    .set({ connected: false, agent_process_id: null })
    .where('agent_process_id', 'in', processIds)
    .execute();
}
