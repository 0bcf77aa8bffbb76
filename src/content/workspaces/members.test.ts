import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../../test/fixtures/workspace.js';
import { addMember, createUser, createWorkspace } from '../../../test/helpers/factories.js';

const t = useApp();

describe('members', () => {
  it('lists members with role and avatar', async () => {
    const { workspace, viewer } = await workspaceWithMembers(t, ['viewer'], { viewer: 'Vic' });
    const response = await t.api.get(`/workspaces/${workspace.id}/members`, {
      token: viewer.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      expect.objectContaining({
        userId: workspace.owner.user.id,
        role: 'owner',
        avatarFileId: null,
      }),
      {
        userId: viewer.user.id,
        email: viewer.user.email,
        name: 'Vic',
        role: 'viewer',
        avatarFileId: null,
        joinedAt: expect.any(String),
      },
    ]);
  });

  it('attaches an existing account, changes its role, and answers 404 for an unknown e-mail', async () => {
    const workspace = await createWorkspace(t);
    const person = await createUser(t);
    const added = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: person.user.email.toUpperCase(), role: 'member' },
      { token: workspace.owner.token },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ userId: person.user.id, role: 'member' });
    const promoted = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: person.user.email, role: 'admin' },
      { token: workspace.owner.token },
    );
    expect(promoted.body.role).toBe('admin');
    const unknown = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: 'nobody@example.test', role: 'member' },
      { token: workspace.owner.token },
    );
    expect(unknown.status).toBe(404);
    // The same code as an organization's: the address has no account.
    expect(unknown.body.error.code).toBe('account_not_found');
    const badRole = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: person.user.email, role: 'superuser' },
      { token: workspace.owner.token },
    );
    expect(badRole.status).toBe(400);
  });

  it('lets only admins manage members and only owners touch owners', async () => {
    const { workspace, admin, member } = await workspaceWithMembers(t, ['admin', 'member']);
    const person = await createUser(t);
    const byMember = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: person.user.email, role: 'viewer' },
      { token: member.token },
    );
    expect(byMember.status).toBe(403);
    const grantOwner = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: person.user.email, role: 'owner' },
      { token: admin.token },
    );
    expect(grantOwner.status).toBe(403);
    const demoteOwner = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: workspace.owner.user.email, role: 'admin' },
      { token: admin.token },
    );
    expect(demoteOwner.status).toBe(403);
    const removeOwner = await t.http.delete(
      `/workspaces/${workspace.id}/members/${workspace.owner.user.id}`,
      {
        token: admin.token,
      },
    );
    expect(removeOwner.status).toBe(403);
    const removeMember = await t.http.delete(
      `/workspaces/${workspace.id}/members/${member.user.id}`,
      {
        token: admin.token,
      },
    );
    expect(removeMember.status).toBe(204);
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token: member.token })).status).toBe(
      404,
    );
  });

  it('protects the last owner from demotion and removal with 409', async () => {
    const workspace = await createWorkspace(t);
    const demote = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: workspace.owner.user.email, role: 'admin' },
      { token: workspace.owner.token },
    );
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('last_owner');
    const leave = await t.http.delete(
      `/workspaces/${workspace.id}/members/${workspace.owner.user.id}`,
      {
        token: workspace.owner.token,
      },
    );
    expect(leave.status).toBe(409);

    const second = await addMember(t, workspace, 'owner');
    const nowLeaves = await t.http.delete(
      `/workspaces/${workspace.id}/members/${workspace.owner.user.id}`,
      {
        token: workspace.owner.token,
      },
    );
    expect(nowLeaves.status).toBe(204);
    const lastDemotesSelf = await t.http.post(
      `/workspaces/${workspace.id}/members`,
      { email: second.user.email, role: 'member' },
      { token: second.token },
    );
    expect(lastDemotesSelf.status).toBe(409);
  });

  it('lets two owners not demote each other at once below one owner', async () => {
    const workspace = await createWorkspace(t);
    const second = await addMember(t, workspace, 'owner');
    const [a, b] = await Promise.all([
      t.http.post(
        `/workspaces/${workspace.id}/members`,
        { email: second.user.email, role: 'admin' },
        { token: workspace.owner.token },
      ),
      t.http.post(
        `/workspaces/${workspace.id}/members`,
        { email: workspace.owner.user.email, role: 'admin' },
        { token: second.token },
      ),
    ]);
    // One wins; the other is refused, as no longer owner (403) or as the last owner (409).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(201);
    expect([403, 409]).toContain(statuses[1]);
    const owners = (
      await t.http.get(`/workspaces/${workspace.id}/members`, { token: workspace.owner.token })
    ).body.filter((m: { role: string }) => m.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it('lets any member leave', async () => {
    const { workspace, viewer } = await workspaceWithMembers(t, ['viewer']);
    const response = await t.http.delete(`/workspaces/${workspace.id}/members/${viewer.user.id}`, {
      token: viewer.token,
    });
    expect(response.status).toBe(204);
  });

  it('sets and removes the caller’s avatar, refusing non-images and foreign files', async () => {
    const workspace = await createWorkspace(t);
    const other = await createWorkspace(t);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const upload = async (ws: string, token: string, bytes: Buffer, name: string) => {
      const boundary = 'BOUNDARY';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await t.http.raw({
        method: 'POST',
        url: `/workspaces/${ws}/files`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      expect(response.status).toBe(201);
      return response.body.id;
    };
    const image = await upload(workspace.id, workspace.owner.token, png, 'me.png');
    const text = await upload(
      workspace.id,
      workspace.owner.token,
      Buffer.from('not an image'),
      'fake.png',
    );
    const foreign = await upload(other.id, other.owner.token, png, 'theirs.png');

    const set = await t.http.patch(
      `/workspaces/${workspace.id}/members/me`,
      { avatarFileId: image },
      { token: workspace.owner.token },
    );
    expect(set.status).toBe(200);
    expect(set.body.avatarFileId).toBe(image);
    const notImage = await t.http.patch(
      `/workspaces/${workspace.id}/members/me`,
      { avatarFileId: text },
      { token: workspace.owner.token },
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body.error.code).toBe('not_an_image');
    const notHere = await t.http.patch(
      `/workspaces/${workspace.id}/members/me`,
      { avatarFileId: foreign },
      { token: workspace.owner.token },
    );
    expect(notHere.status).toBe(400);
    expect(notHere.body.error.code).toBe('unknown_file');
    const cleared = await t.http.patch(
      `/workspaces/${workspace.id}/members/me`,
      { avatarFileId: null },
      { token: workspace.owner.token },
    );
    expect(cleared.body.avatarFileId).toBeNull();
  });
});
