import { type OrgAccess, requireAccess } from '../access/org-access.js';
import { roleCan } from '../access/roles.js';
import type { WorkerRow } from './repository.js';

type Owned = Pick<WorkerRow, 'user_id'>;

/** Whether the caller spawned the worker (an organization key spawns no one's). */
export function isOwnWorker(access: OrgAccess, worker: Owned): boolean {
  return access.userId !== null && access.userId === worker.user_id;
}

/**
 * Who may act on a worker (stop, start, delete, exec, terminals, SSH): the
 * person who spawned it (with `workers.use`, which every route on a worker
 * declares), anyone else with `workers.manage_all`.
 */
export function canActOnWorker(access: OrgAccess, worker: Owned): boolean {
  return isOwnWorker(access, worker) || roleCan(access.role, 'workers.manage_all');
}

/** Throws 403 `insufficient_role` (naming `workers.manage_all`) unless the caller may act on it. */
export function requireWorkerAction(access: OrgAccess, worker: Owned): void {
  if (isOwnWorker(access, worker)) return;
  requireAccess(access, 'workers.manage_all');
}
