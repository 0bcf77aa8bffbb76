import { type Selectable, sql } from 'kysely';
import type { Checkout, PortMapping, Repository } from '../../agent/protocol/schemas.js';
import type { Database } from '../../db/schema.js';
import type { WorkerState, WorkersTable } from './tables.js';

/** A worker as stored: every column, JSON ones parsed. */
export type WorkerRow = Selectable<WorkersTable>;

export interface NewWorker {
  id: string;
  org_id: string;
  project_id: string;
  node_id: string;
  user_id: string | null;
  created_by_key_id: string | null;
  name: string;
  branch: string | null;
  image: string;
  repositories: Repository[];
  forward_ports: number[];
}

export async function insertWorker(db: Database, worker: NewWorker): Promise<WorkerRow> {
  return db
    .insertInto('workers')
    .values({
      ...worker,
      state: 'creating',
      repositories: JSON.stringify(worker.repositories),
      forward_ports: JSON.stringify(worker.forward_ports),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listWorkers(db: Database, projectId: string): Promise<WorkerRow[]> {
  return db
    .selectFrom('workers')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function workersOnNode(db: Database, nodeId: string): Promise<WorkerRow[]> {
  return db.selectFrom('workers').selectAll().where('node_id', '=', nodeId).execute();
}

export async function findWorker(db: Database, workerId: string): Promise<WorkerRow | undefined> {
  return db.selectFrom('workers').selectAll().where('id', '=', workerId).executeTakeFirst();
}

/** Workers holding a place on each node (not stopped, failed or lost). */
export async function activeCounts(
  db: Database,
  nodeIds: readonly string[],
): Promise<Map<string, number>> {
  if (nodeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('workers')
    .select(['node_id', sql<string>`count(*)`.as('count')])
    .where('node_id', 'in', nodeIds)
    .where('state', 'in', ['creating', 'starting', 'ready', 'stopping'])
    .groupBy('node_id')
    .execute();
  return new Map(rows.map((row) => [row.node_id, Number(row.count)]));
}

export interface WorkerChanges {
  state?: WorkerState;
  state_reason?: string | null;
  container_id?: string | null;
  ports?: PortMapping[];
  checkouts?: Checkout[];
  ready?: boolean;
}

/**
 * Applies the changes when the worker is in one of `from` (all states when
 * omitted); undefined when it is not, or is gone. A state change stamps
 * `state_changed_at` and clears the reason unless one is given.
 */
export async function updateWorker(
  db: Database,
  workerId: string,
  changes: WorkerChanges,
  from?: readonly WorkerState[],
): Promise<WorkerRow | undefined> {
  const now = new Date();
  let query = db
    .updateTable('workers')
    .set({
      updated_at: now,
      ...(changes.state === undefined
        ? {}
        : { state: changes.state, state_changed_at: now, state_reason: null }),
      ...(changes.state_reason === undefined ? {} : { state_reason: changes.state_reason }),
      ...(changes.container_id === undefined ? {} : { container_id: changes.container_id }),
      ...(changes.ports === undefined ? {} : { ports: JSON.stringify(changes.ports) }),
      ...(changes.checkouts === undefined ? {} : { checkouts: JSON.stringify(changes.checkouts) }),
      ...(changes.ready === true ? { ready_at: now } : {}),
    })
    .where('id', '=', workerId);
  if (from !== undefined) query = query.where('state', 'in', from);
  return query.returningAll().executeTakeFirst();
}

export async function deleteWorker(db: Database, workerId: string): Promise<void> {
  await db.deleteFrom('workers').where('id', '=', workerId).execute();
}
