import { describe, expect, it } from 'vitest';
import type { OrgAccess } from '../access/org-access.js';
import type { OrgRole } from '../access/roles.js';
import { canSeeKey, requireKeyCreation, seesEveryKey } from './policy.js';

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

function access(role: OrgRole): OrgAccess {
  return { orgId: 'org', role, userId: ME, keyId: null, scopes: null };
}

describe('who may create and see API keys', () => {
  it('lets every member create a personal key, owners and admins an organization key', () => {
    expect(() => requireKeyCreation(access('member'), 'user')).not.toThrow();
    expect(() => requireKeyCreation(access('admin'), 'org')).not.toThrow();
    expect(() => requireKeyCreation(access('member'), 'org')).toThrowError(
      expect.objectContaining({ status: 403, code: 'insufficient_role' }),
    );
  });

  it("shows a member their own keys, owners and admins everyone's", () => {
    expect(seesEveryKey(access('member'))).toBe(false);
    expect(seesEveryKey(access('owner'))).toBe(true);
    expect(canSeeKey(access('member'), { created_by: ME })).toBe(true);
    expect(canSeeKey(access('member'), { created_by: OTHER })).toBe(false);
    expect(canSeeKey(access('admin'), { created_by: OTHER })).toBe(true);
  });
});
