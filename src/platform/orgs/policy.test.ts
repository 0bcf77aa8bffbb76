import { describe, expect, it } from 'vitest';
import type { OrgAccess } from '../access/org-access.js';
import type { OrgRole } from '../access/roles.js';
import { requireMemberAddition, requireMemberRemoval, requireRoleChange } from './policy.js';

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const refused = expect.objectContaining({ status: 403, code: 'insufficient_role' });

function access(role: OrgRole): OrgAccess {
  return { orgId: 'org', role, userId: ME, keyId: null, scopes: null };
}

describe('who may change the members', () => {
  it('lets owners and admins add members and admins, only owners add an owner', () => {
    expect(() => requireMemberAddition(access('admin'), 'admin')).not.toThrow();
    expect(() => requireMemberAddition(access('member'), 'member')).toThrowError(refused);
    expect(() => requireMemberAddition(access('admin'), 'owner')).toThrowError(refused);
    expect(() => requireMemberAddition(access('owner'), 'owner')).not.toThrow();
  });

  it('needs an owner for any change to or from owner', () => {
    expect(() => requireRoleChange(access('admin'), 'member', 'admin')).not.toThrow();
    expect(() => requireRoleChange(access('admin'), 'owner', 'admin')).toThrowError(refused);
    expect(() => requireRoleChange(access('admin'), 'admin', 'owner')).toThrowError(refused);
    expect(() => requireRoleChange(access('owner'), 'owner', 'member')).not.toThrow();
  });

  it('lets anyone leave, and needs the right role to remove someone else', () => {
    expect(() =>
      requireMemberRemoval(access('member'), { userId: ME, role: 'member' }),
    ).not.toThrow();
    expect(() =>
      requireMemberRemoval(access('member'), { userId: OTHER, role: 'member' }),
    ).toThrowError(refused);
    expect(() =>
      requireMemberRemoval(access('admin'), { userId: OTHER, role: 'owner' }),
    ).toThrowError(refused);
    expect(() =>
      requireMemberRemoval(access('admin'), { userId: OTHER, role: 'admin' }),
    ).not.toThrow();
  });
});
