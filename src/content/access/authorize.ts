import { sql } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { Actor } from '../../events/types.js';
import type { EventSinks } from '../../events/writer.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { RegistryCache } from '../fields/registry-cache.js';
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
  /**
   * The workspace's registry version, read with the authorization: what the
   * app's registry cache is checked against (absent: read it when needed).
   */
  registryVersion?: number;
  /** The app's registry cache (absent: the registry is read from the database each time). */
  registries?: RegistryCache;
  /** The app's event sinks (`AppContext.eventSinks`), run with every event the call writes. */
  eventSinks: EventSinks;
}

/** What the authorization decides; the caller adds what the app holds (its event sinks). */
export type WorkspaceGrant = Omit<WorkspaceAccess, 'eventSinks'>;

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

type Grant = Omit<WorkspaceGrant, 'principal' | 'workspaceId'>;

/** The caller's role (a person's membership) and the registry version, in one prepared statement. */
async function grantOf(
  db: Database,
  principal: Principal,
  workspaceId: string,
): Promise<Grant | null> {
  const bound = isWorkspaceBound(principal) && principal.workspaceId === workspaceId;
  if (principal.kind !== 'user' && !bound) return null;
  const userId = principal.kind === 'user' ? principal.userId : null;
  const { rows } = await sql<{ role: string | null; version: number | string }>`${PREPARED}
    select (select role from workspace_members
             where workspace_id = ${workspaceId} and user_id = cast(${userId} as uuid)) as role,
           coalesce((select version from registry_versions where workspace_id = ${workspaceId}), 0) as version`.execute(
    db,
  );
  const registryVersion = Number(rows[0]?.version ?? 0);
  if (principal.kind === 'user') {
    const role = rows[0]?.role ?? undefined;
    if (role === undefined || !isRole(role)) return null;
    return {
      role,
      userId: principal.userId,
      actor: { kind: 'user', label: principal.label, userId: principal.userId },
      registryVersion,
    };
  }
  if (isWorkspaceBound(principal) && bound) {
    return {
      role: principal.role,
      userId: principal.userId,
      actor: principal.actor,
      registryVersion,
    };
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
): Promise<WorkspaceGrant> {
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
  eventSinks: EventSinks,
): WorkspaceAccess {
  return {
    eventSinks,
    workspaceId,
    role: 'owner',
    userId: principal.userId,
    actor: { kind: 'user', label: principal.label, userId: principal.userId },
    principal,
  };
}
