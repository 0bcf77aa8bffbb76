import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../../test/fixtures/workspace.js';
import { at } from '../../../test/helpers/assert.js';
import {
  addMember,
  allEvents,
  createCollection,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function createKey(
  workspace: TestWorkspace,
  role: string,
  token = workspace.owner.token,
  name = 'CI',
) {
  return t.http.post(`/workspaces/${workspace.id}/api-keys`, { name, role }, { token });
}

describe('workspace API keys', () => {
  it('shows the token once, lists a prefix, stores only a hash', async () => {
    const workspace = await createWorkspace(t);
    const created = await createKey(workspace, 'member');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'CI',
      role: 'member',
      revokedAt: null,
      lastUsedAt: null,
      createdBy: workspace.owner.user.id,
    });
    expect(created.body.token).toMatch(/^swk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.tokenPrefix).toBe(created.body.token.slice(0, 8));
    const list = await t.http.get(`/workspaces/${workspace.id}/api-keys`, {
      token: workspace.owner.token,
    });
    expect(list.body).toEqual([
      expect.objectContaining({ id: created.body.id, tokenPrefix: created.body.tokenPrefix }),
    ]);
    expect(list.text).not.toContain(created.body.token);
    const stored = await t.db
      .selectFrom('workspace_api_keys')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.body.token);
  });

  it('acts with its role in its own workspace, and is logged as the key', async () => {
    const workspace = await createWorkspace(t);
    const other = await createWorkspace(t);
    const key = (await createKey(workspace, 'member', workspace.owner.token, 'Importer')).body;
    const list = await createCollection(t, workspace);
    const item = await t.api.post(
      `/workspaces/${workspace.id}/collections/${list.id}/items`,
      { title: 'By key' },
      { token: key.token },
    );
    expect(item.status).toBe(201);
    expect(item.body.createdBy).toBe(workspace.owner.user.id);
    const [event] = await allEvents(t, workspace, { type: 'item.created' });
    expect(event?.actor).toEqual({ kind: 'api_key', label: 'Importer', apiKeyId: key.id });
    expect(
      (await t.http.patch(`/workspaces/${workspace.id}`, { name: 'No' }, { token: key.token }))
        .status,
    ).toBe(403);
    expect((await t.http.get(`/workspaces/${other.id}`, { token: key.token })).status).toBe(404);
    const mine = await t.http.get('/workspaces', { token: key.token });
    expect(mine.body.map((ws: { id: string; role: string }) => [ws.id, ws.role])).toEqual([
      [workspace.id, 'member'],
    ]);
    const lastUsed = await t.http.get(`/workspaces/${workspace.id}/api-keys`, {
      token: workspace.owner.token,
    });
    expect(at(lastUsed.body, 0).lastUsedAt).not.toBeNull();
  });

  it('refuses human-only routes and the platform API to keys', async () => {
    const workspace = await createWorkspace(t);
    const key = (await createKey(workspace, 'owner')).body;
    const token = key.token;
    const refusals = [
      await t.http.post('/workspaces', { name: 'X', slug: 'key-made' }, { token }),
      await t.http.delete(`/workspaces/${workspace.id}`, { token, body: { slug: workspace.slug } }),
      await t.http.post(
        `/workspaces/${workspace.id}/members`,
        { email: 'x@example.test', role: 'viewer' },
        { token },
      ),
      await t.http.patch(
        `/workspaces/${workspace.id}/members/me`,
        { avatarFileId: null },
        { token },
      ),
      await t.http.delete(`/workspaces/${workspace.id}/members/${workspace.owner.user.id}`, {
        token,
      }),
      await t.http.post(
        `/workspaces/${workspace.id}/api-keys`,
        { name: 'x', role: 'viewer' },
        { token },
      ),
      await t.http.get(`/workspaces/${workspace.id}/api-keys`, { token }),
      await t.http.get('/auth/me', { token }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('session_required');
    }
    expect((await t.http.get(`/workspaces/${workspace.id}/members`, { token })).status).toBe(200);
    const platform = await t.http.get('/api/orgs', { token });
    expect(platform.status).toBe(403);
    expect(platform.body.error.code).toBe('credential_not_accepted');
  });

  it('caps the role at the creator’s, now and later', async () => {
    const { workspace, admin } = await workspaceWithMembers(t, ['admin']);
    const tooHigh = await createKey(workspace, 'owner', admin.token);
    expect(tooHigh.status).toBe(403);
    expect(tooHigh.body.error.code).toBe('role_above_creator');
    const key = (await createKey(workspace, 'admin', admin.token)).body;
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/fields`,
          { key: 'a', type: 'text', name: 'A' },
          { token: key.token },
        )
      ).status,
    ).toBe(201);
    await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: admin.user.email, role: 'viewer' },
      { token: workspace.owner.token },
    );
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/fields`,
          { key: 'b', type: 'text', name: 'B' },
          { token: key.token },
        )
      ).status,
    ).toBe(403);
    await t.http.delete(`/workspaces/${workspace.id}/members/${admin.user.id}`, {
      token: workspace.owner.token,
    });
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token: key.token })).status).toBe(
      401,
    );
    const member = await addMember(t, workspace, 'member');
    expect((await createKey(workspace, 'viewer', member.token)).status).toBe(403);
  });

  it('stops working on the next request after revocation and stays listed', async () => {
    const workspace = await createWorkspace(t);
    const key = (await createKey(workspace, 'viewer')).body;
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token: key.token })).status).toBe(
      200,
    );
    const revoked = await t.http.delete(`/workspaces/${workspace.id}/api-keys/${key.id}`, {
      token: workspace.owner.token,
    });
    expect(revoked.status).toBe(204);
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token: key.token })).status).toBe(
      401,
    );
    const list = await t.http.get(`/workspaces/${workspace.id}/api-keys`, {
      token: workspace.owner.token,
    });
    expect(at(list.body, 0).revokedAt).not.toBeNull();
    const other = await createWorkspace(t);
    expect(
      (
        await t.http.delete(`/workspaces/${other.id}/api-keys/${key.id}`, {
          token: other.owner.token,
        })
      ).status,
    ).toBe(404);
  });
});
