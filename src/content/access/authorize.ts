import type { Database } from '../../db/schema.js';
import type { Actor } from '../../events/types.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { findMemberRole } from '../workspaces/repository.js';
import { type Action, PERMISSIONS } from './permissions.js';
import { atLeast, isRole, type Role } from './roles.js';

/** What a caller may do in one workspace, decided once per request. */
export interface WorkspaceAccess {
  workspaceId: string;
  role: Role;
  /** The person behind the call: the user, or the creator of a key or installation. */
  userId: string;
  /** Frozen into every event the call writes. */
  actor: Actor;
  principal: Principal;
}

/**
 * A principal bound to one workspace (a workspace API key, an app
 * installation): it carries its workspace, its effective role and its actor.
 */
export interface WorkspaceBoundPrincipal {
  kind: string;
  label: string;
  workspaceId: string;
  role: Role;
  userId: string;
  actor: Actor;
}

function isWorkspaceBound(principal: Principal): principal is Principal & WorkspaceBoundPrincipal {
  return 'workspaceId' in principal && 'role' in principal && 'actor' in principal;
}

async function grantOf(
  db: Database,
  principal: Principal,
  workspaceId: string,
): Promise<Omit<WorkspaceAccess, 'principal' | 'workspaceId'> | null> {
  if (principal.kind === 'user') {
    const role = await findMemberRole(db, workspaceId, principal.userId);
    if (role === undefined || !isRole(role)) return null;
    return {
      role,
      userId: principal.userId,
      actor: { kind: 'user', label: principal.label, userId: principal.userId },
    };
  }
  if (isWorkspaceBound(principal) && principal.workspaceId === workspaceId) {
    return { role: principal.role, userId: principal.userId, actor: principal.actor };
  }
  return null;
}

/**
 * Checks that the caller may perform `action` in the workspace. A workspace
 * the caller does not belong to answers 404, exactly as an unknown one.
 */
export async function authorizeWorkspace(
  db: Database,
  principal: Principal,
  workspaceId: string,
  action: Action,
): Promise<WorkspaceAccess> {
  const grant = await grantOf(db, principal, workspaceId);
  if (grant === null) throw notFound('Workspace');
  requireRoleFor(grant.role, action);
  return { ...grant, workspaceId, principal };
}

/** 403 `insufficient_role` unless the role may perform the action (for checks a body decides). */
export function requireRoleFor(role: Role, action: Action): void {
  const required = PERMISSIONS[action];
  if (!atLeast(role, required)) {
    throw forbidden('insufficient_role', `This needs the ${required} role or above`, {
      required,
      role,
    });
  }
}

/** Access for work done on behalf of a user that has just been made owner (workspace creation). */
export function ownerAccess(
  workspaceId: string,
  principal: Principal & { kind: 'user' },
): WorkspaceAccess {
  return {
    workspaceId,
    role: 'owner',
    userId: principal.userId,
    actor: { kind: 'user', label: principal.label, userId: principal.userId },
    principal,
  };
}
