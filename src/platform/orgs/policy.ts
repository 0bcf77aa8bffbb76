import type { OrgAccess } from '../access/org-access.js';
import { type OrgRole, requireRole } from '../access/roles.js';

/**
 * Who may change the members of an organization: `members.manage` for the
 * roles below owner, `owners.manage` for anything touching the owner role
 * (granting it, taking it away, removing an owner). Anyone may leave
 * (`members.leave`, which the removal route declares).
 */
function membershipPermission(...roles: readonly OrgRole[]) {
  return roles.includes('owner') ? 'owners.manage' : 'members.manage';
}

/** Adding a member with this role. */
export function requireMemberAddition(access: OrgAccess, role: OrgRole): void {
  requireRole(access.role, membershipPermission(role));
}

/** Changing a member's role from `from` to `to`. */
export function requireRoleChange(access: OrgAccess, from: OrgRole, to: OrgRole): void {
  requireRole(access.role, membershipPermission(from, to));
}

/** Removing a member: leaving needs nothing more; removing someone else does. */
export function requireMemberRemoval(
  access: OrgAccess,
  member: { userId: string; role: OrgRole },
): void {
  if (member.userId === access.userId) return;
  requireRole(access.role, membershipPermission(member.role));
}
