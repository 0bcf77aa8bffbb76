import type { AgentPeer } from '../../agent/peer.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import type { AgentRegistry } from '../nodes/registry.js';
import { requireWorkerAction } from './policy.js';
import type { WorkerRow } from './repository.js';
import { workerInProject } from './service.js';

export interface WorkerTarget {
  access: OrgAccess;
  row: WorkerRow;
  peer: AgentPeer;
  containerId: string;
}

export interface TargetParams {
  projectId: string;
  workerId: string;
}

/**
 * The running worker a request acts on, with its node's agent: 404 for a
 * worker the caller cannot see, 403 for one they may not act on (`control`:
 * exec, terminals, commands are for its owner or an owner or admin), 409
 * `worker_not_running` unless it is ready, 503 `node_offline`.
 */
export async function workerTarget(
  db: Database,
  registry: AgentRegistry,
  access: OrgAccess,
  params: TargetParams,
  control: boolean,
): Promise<WorkerTarget> {
  const row = await workerInProject(db, access, params.projectId, params.workerId);
  if (control) requireWorkerAction(access, row);
  return runningTarget(registry, access, row);
}

export async function runningTarget(
  registry: AgentRegistry,
  access: OrgAccess,
  row: WorkerRow,
): Promise<WorkerTarget> {
  if (row.state !== 'ready' || row.container_id === null) {
    throw conflict('worker_not_running', `The worker is ${row.state}, not ready`, {
      state: row.state,
    });
  }
  const peer = await registry.reach(row.node_id);
  return { access, row, peer, containerId: row.container_id };
}

/** What a route acting on a running worker may answer beyond the usual. */
export const TARGET_ERRORS = [
  'insufficient_role',
  'worker_not_running',
  'node_offline',
  'agent_timeout',
  'agent_error',
] as const;
