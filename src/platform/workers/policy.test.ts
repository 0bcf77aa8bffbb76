import { describe, expect, it } from 'vitest';
import type { OrgAccess } from '../access/org-access.js';
import type { OrgRole } from '../access/roles.js';
import { canActOnWorker, requireWorkerAction } from './policy.js';

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

function access(role: OrgRole, userId: string | null = ME): OrgAccess {
  return { orgId: 'org', role, userId, keyId: null, scopes: null };
}

describe('who may act on a worker', () => {
  it('lets anyone act on their own worker', () => {
    expect(canActOnWorker(access('member'), { user_id: ME })).toBe(true);
    expect(() => requireWorkerAction(access('member'), { user_id: ME })).not.toThrow();
  });

  it("needs workers.manage_all for another's worker, and for an organization key", () => {
    expect(canActOnWorker(access('member'), { user_id: OTHER })).toBe(false);
    expect(canActOnWorker(access('member', null), { user_id: null })).toBe(false);
    expect(canActOnWorker(access('admin'), { user_id: OTHER })).toBe(true);
    expect(canActOnWorker(access('owner', null), { user_id: OTHER })).toBe(true);
    expect(() => requireWorkerAction(access('member'), { user_id: OTHER })).toThrowError(
      expect.objectContaining({ status: 403, code: 'insufficient_role' }),
    );
  });
});
