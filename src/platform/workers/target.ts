import type { FastifyRequest } from 'fastify';
import type { AgentPeer } from '../../agent/peer.js';
import { requirePrincipal } from '../../http/auth.js';
import { conflict } from '../../http/errors.js';
import type { AppContext } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import type { AgentRegistry } from '../nodes/registry.js';
import * as orgs from '../orgs/service.js';
import type { WorkerRow } from './repository.js';
import { requireControl, workerInProject } from './service.js';

export interface WorkerTarget {
  access: OrgAccess;
  row: WorkerRow;
  peer: AgentPeer;
  containerId: string;
}

export interface TargetParams {
  orgId: string;
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
  ctx: AppContext,
  registry: AgentRegistry,
  request: FastifyRequest,
  params: TargetParams,
  control: boolean,
): Promise<WorkerTarget> {
  const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), params.orgId);
  const row = await workerInProject(ctx.db, access, params.projectId, params.workerId);
  if (control) requireControl(access, row);
  return runningTarget(registry, access, row);
}

export function runningTarget(
  registry: AgentRegistry,
  access: OrgAccess,
  row: WorkerRow,
): WorkerTarget {
  if (row.state !== 'ready' || row.container_id === null) {
    throw conflict('worker_not_running', `The worker is ${row.state}, not ready`, {
      state: row.state,
    });
  }
  return { access, row, peer: registry.peer(row.node_id), containerId: row.container_id };
}
