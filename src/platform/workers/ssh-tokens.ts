import type { Database } from '../../db/schema.js';
import type { RouteRef } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import type { BasePrincipal, Principal } from '../../http/principal.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { OrgAccess } from '../access/org-access.js';

export const SSH_TOKEN_PREFIX = 'sst_';
export const SSH_TOKEN_TTL_MS = 5 * 60_000;
/** The one route an SSH token opens. */
export const SSH_TOKEN_ROUTE = '/api/workers/:workerId/terminal';

/** A request made with a worker's SSH token. */
export interface WorkerSshPrincipal extends BasePrincipal {
  kind: 'worker_ssh';
  workerId: string;
  userId: string;
}

declare module '../../http/principal.js' {
  interface PrincipalKinds {
    worker_ssh: WorkerSshPrincipal;
  }
}

export async function issueSshToken(
  db: Database,
  access: OrgAccess,
  workerId: string,
): Promise<{ token: string; expiresAt: Date }> {
  if (access.userId === null) {
    throw forbidden(
      'person_required',
      'An SSH token acts as a person: use a session or a personal key, not an organization key',
    );
  }
  const token = generateToken(SSH_TOKEN_PREFIX);
  const expiresAt = new Date(Date.now() + SSH_TOKEN_TTL_MS);
  await db
    .insertInto('worker_ssh_tokens')
    .values({
      id: newId(),
      worker_id: workerId,
      user_id: access.userId,
      token_hash: hashToken(token),
      expires_at: expiresAt,
    })
    .execute();
  // Expired tokens are swept as new ones are made.
  await db.deleteFrom('worker_ssh_tokens').where('expires_at', '<', new Date()).execute();
  return { token, expiresAt };
}

export async function resolveSshToken(
  db: Database,
  token: string,
): Promise<WorkerSshPrincipal | null> {
  const row = await db
    .selectFrom('worker_ssh_tokens')
    .select(['worker_id', 'user_id'])
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    kind: 'worker_ssh',
    label: 'SSH token',
    workerId: row.worker_id,
    userId: row.user_id,
  };
}

/** An SSH token opens its worker's terminal endpoint and nothing else. */
export function authorizeSshToken(principal: Principal, route: RouteRef): void {
  if (principal.kind !== 'worker_ssh') return;
  if (route.method === 'GET' && route.url === SSH_TOKEN_ROUTE) return;
  throw forbidden('key_not_allowed', "An SSH token opens only its worker's terminal endpoint");
}
