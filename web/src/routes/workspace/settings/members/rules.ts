import type { Role } from '../../../../api/members.js';
import { roleAtLeast } from '../../context.js';

/**
 * Why the person (with role `mine`) may not change a member whose role is
 * `theirs`, or undefined when they may. The API's rules: admins and owners
 * manage members; granting, changing or removing `owner` needs an owner.
 */
export function whyCannotManage(mine: Role, theirs: Role): string | undefined {
  if (!roleAtLeast(mine, 'admin')) return `Only admins and owners manage members.`;
  if (theirs === 'owner' && mine !== 'owner') return `Only an owner can change an owner.`;
  return undefined;
}

/** The roles the person may grant: up to their own (owner only by an owner). */
export function grantableRoles(mine: Role): Role[] {
  const all: Role[] = ['viewer', 'member', 'admin', 'owner'];
  return all.filter((role) => roleAtLeast(mine, role));
}

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  member: 'Member',
  admin: 'Admin',
  owner: 'Owner',
};

/** A refusal of a member change in words, with what to do about it where there is something. */
export function explainRefusal(code: string, message: string): string {
  if (code === 'last_owner') {
    return 'The workspace must keep an owner: make another member an owner first, then try again.';
  }
  if (code === 'account_not_found') {
    return 'No account has this e-mail address. Invite the address by link below instead.';
  }
  return message;
}
