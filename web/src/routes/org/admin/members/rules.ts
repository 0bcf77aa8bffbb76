import type { OrgRole } from '../../../../api/org-members.js';
import { orgRoleAtLeast } from '../../context.js';

export const ORG_ROLE_LABELS: Record<OrgRole, string> = {
  member: 'Member',
  admin: 'Admin',
  owner: 'Owner',
};

/** The roles the person may grant: owner only by an owner, the rest by an admin or owner. */
export function grantableOrgRoles(mine: OrgRole): OrgRole[] {
  if (!orgRoleAtLeast(mine, 'admin')) return [];
  return mine === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin'];
}

/** Why the person may not change or remove a member with role `theirs`, or undefined when they may. */
export function whyCannotManage(mine: OrgRole, theirs: OrgRole): string | undefined {
  if (!orgRoleAtLeast(mine, 'admin')) return 'Only admins and owners manage members.';
  if (theirs === 'owner' && mine !== 'owner') return 'Only an owner can change an owner.';
  return undefined;
}

/** A refusal of a member change in words, with what to do about it. */
export function explainMemberRefusal(code: string, message: string): string {
  if (code === 'last_owner') {
    return 'The organization must keep an owner: make another member an owner first, then try again.';
  }
  if (code === 'account_not_found') {
    return 'No account has this e-mail address: the person must sign up first.';
  }
  if (code === 'already_member') return 'This account is already a member: change its role below.';
  if (code === 'insufficient_role') {
    return `Your role does not allow this: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
  return message;
}
