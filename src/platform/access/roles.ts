import { forbidden } from '../../http/errors.js';

/** A member's role in an organization. */
export const ORG_ROLES = ['owner', 'admin', 'member'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

const EVERYONE: readonly OrgRole[] = ORG_ROLES;
const MANAGERS: readonly OrgRole[] = ['owner', 'admin'];
const OWNERS: readonly OrgRole[] = ['owner'];

/**
 * What each role may do in its organization: the one table every platform
 * route names a permission of (`orgRoutes`), and the resources' policies ask
 * when the resource decides (one's own workers, keys, the owner role). An API
 * key acts with a role too (see OrgAccess), and needs its scope on top.
 */
export const ORG_PERMISSIONS = {
  /** See the organization, its members and its projects. */
  'organization.read': EVERYONE,
  /** Leave the organization (removing others needs `members.manage`). */
  'members.leave': EVERYONE,
  /** Add members and admins, change their roles, remove them. */
  'members.manage': MANAGERS,
  /** Grant or take away the owner role, remove an owner. */
  'owners.manage': OWNERS,
  'projects.read': EVERYONE,
  /** Create and update projects, restore versions. */
  'projects.write': EVERYONE,
  'projects.delete': MANAGERS,
  /** Write project secrets (in a project PATCH or through the secrets routes). */
  'secrets.write': MANAGERS,
  /** Create personal API keys, see and revoke one's own. */
  'api_keys.use': EVERYONE,
  /** Create API keys that act as the organization (`ownerType: "org"`). */
  'api_keys.create_org_key': MANAGERS,
  /** See and revoke every key of the organization, not only one's own. */
  'api_keys.manage_all': MANAGERS,
  /** See the organization's nodes and their inventory. */
  'nodes.read': EVERYONE,
  /** Register, delete and drain nodes, rotate their tokens. */
  'nodes.manage': MANAGERS,
  /** See workers, spawn one, and act on one's own (stop, start, delete, exec, terminals). */
  'workers.use': EVERYONE,
  /** Act on workers other members spawned. */
  'workers.manage_all': MANAGERS,
  /** See deployments, their services, logs and job runs. */
  'deployments.read': EVERYONE,
  /** Create and change deployments and services; start, stop and deploy them. */
  'deployments.write': EVERYONE,
  'deployments.delete': MANAGERS,
} as const satisfies Record<string, readonly OrgRole[]>;

export type OrgPermission = keyof typeof ORG_PERMISSIONS;

export function roleCan(role: OrgRole, permission: OrgPermission): boolean {
  const allowed: readonly OrgRole[] = ORG_PERMISSIONS[permission];
  return allowed.includes(role);
}

/** Throws 403 `insufficient_role` unless the role has the permission. */
export function requireRole(role: OrgRole, permission: OrgPermission): void {
  if (roleCan(role, permission)) return;
  const allowed: readonly OrgRole[] = ORG_PERMISSIONS[permission];
  throw forbidden(
    'insufficient_role',
    `This needs the role ${allowed.join(' or ')} in the organization`,
    { permission, allowedRoles: allowed, role },
  );
}
