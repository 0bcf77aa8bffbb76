import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import type { AppContext } from '../../module.js';
import { authorizeWorkspace, type WorkspaceAccess } from './authorize.js';
import type { Action } from './permissions.js';

/**
 * Runs a write: one transaction, opened here, in which the caller is
 * authorized for the workspace and the service does its work and writes its
 * events.
 */
export function writeInWorkspace<T>(
  ctx: AppContext,
  request: FastifyRequest,
  workspaceId: string,
  action: Action,
  work: (trx: Database, access: WorkspaceAccess) => Promise<T>,
): Promise<T> {
  const principal = requirePrincipal(request);
  return inTransaction(ctx.db, async (trx) => {
    const access = await authorizeWorkspace(trx, principal, workspaceId, action);
    return work(trx, access);
  });
}

/** Runs a read on the pool, after authorizing the caller for the workspace. */
export async function readInWorkspace<T>(
  ctx: AppContext,
  request: FastifyRequest,
  workspaceId: string,
  action: Action,
  work: (db: Database, access: WorkspaceAccess) => Promise<T>,
): Promise<T> {
  const access = await authorizeWorkspace(ctx.db, requirePrincipal(request), workspaceId, action);
  return work(ctx.db, access);
}
