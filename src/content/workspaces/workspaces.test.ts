import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../../test/fixtures/workspace.js';
import { firstIssue } from '../../../test/helpers/assert.js';
import {
  addMember,
  allEvents,
  createUser,
  createWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

describe('creating a workspace', () => {
  it('makes the caller owner, creates three default statuses and logs them', async () => {
    const owner = await createUser(t, { name: 'Olive' });
    const response = await t.api.post(
      '/workspaces',
      { name: ' Acme ', slug: 'acme' },
      { token: owner.token },
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      name: 'Acme',
      slug: 'acme',
      coverLayout: 'none',
      role: 'owner',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const statuses = await t.http.get(`/workspaces/${response.body.id}/statuses`, {
      token: owner.token,
    });
    expect(
      statuses.body.map((status: { name: string; category: string }) => [
        status.name,
        status.category,
      ]),
    ).toEqual([
      ['Todo', 'unstarted'],
      ['In Progress', 'started'],
      ['Done', 'completed'],
    ]);
    const events = await allEvents(t, { id: response.body.id, slug: 'acme', owner });
    expect(events.map((event) => event.type)).toEqual([
      'status.created',
      'status.created',
      'status.created',
    ]);
    expect(events[0]?.actor).toEqual({ kind: 'user', label: 'Olive', userId: owner.user.id });
    expect(events[0]?.changes.name).toEqual({ before: null, after: 'Todo' });
  });

  it('answers 409 slug_taken for a used slug and 400 for a malformed one', async () => {
    const owner = await createUser(t);
    const first = await createWorkspace(t, owner);
    const again = await t.http.post(
      '/workspaces',
      { name: 'Again', slug: first.slug },
      { token: owner.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slug_taken');
    for (const slug of ['', 'Upper', 'trailing-', '-leading', 'sp ace', 'x'.repeat(64), 'ünï']) {
      const response = await t.http.post(
        '/workspaces',
        { name: 'X', slug },
        { token: owner.token },
      );
      expect(response.status, slug).toBe(400);
    }
  });

  it('answers 400 slug_reserved for a path of the web app, which would hide the workspace', async () => {
    const owner = await createUser(t);
    for (const slug of ['sign-in', 'register', 'invite', 'oauth', 'assets', 'orgs', 'account']) {
      const response = await t.http.post(
        '/workspaces',
        { name: 'Shadowed', slug },
        { token: owner.token },
      );
      expect(response.status, slug).toBe(400);
      expect(response.body.error.code).toBe('slug_reserved');
      expect(response.body.error.message).toContain(slug);
    }
    const list = await t.http.get('/workspaces', { token: owner.token });
    expect(list.body).toEqual([]);
  });

  it('requires a session', async () => {
    expect((await t.http.post('/workspaces', { name: 'X', slug: 'no-auth' })).status).toBe(401);
  });
});

describe('reading workspaces', () => {
  it('lists only the caller’s workspaces with their role', async () => {
    const owner = await createUser(t);
    const mine = await createWorkspace(t, owner, 'Mine');
    const theirs = await createWorkspace(t);
    const viewer = await addMember(t, theirs, 'viewer');
    const list = await t.http.get('/workspaces', { token: owner.token });
    expect(list.body.map((workspace: { id: string }) => workspace.id)).toEqual([mine.id]);
    const viewerList = await t.http.get('/workspaces', { token: viewer.token });
    expect(viewerList.body).toEqual([expect.objectContaining({ id: theirs.id, role: 'viewer' })]);
  });

  it('answers 404 alike for an unknown workspace and one the caller is not in', async () => {
    const outsider = await createUser(t);
    const workspace = await createWorkspace(t);
    const foreign = await t.http.get(`/workspaces/${workspace.id}`, { token: outsider.token });
    const unknown = await t.http.get('/workspaces/0190d6e2-3c4b-7def-8123-456789abcdef', {
      token: outsider.token,
    });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
  });
});

describe('updating a workspace', () => {
  it('lets an admin rename it and change the cover layout, logging only what changed', async () => {
    const { workspace, admin } = await workspaceWithMembers(t, ['admin'], { admin: 'Ada' });
    const response = await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Renamed', coverLayout: 'banner' },
      { token: admin.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Renamed', coverLayout: 'banner', role: 'admin' });
    const same = await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Renamed' },
      { token: admin.token },
    );
    expect(same.status).toBe(200);
    const events = await allEvents(t, workspace, { type: 'workspace.updated' });
    expect(events).toHaveLength(1);
    expect(events[0]?.changes).toEqual({
      name: { before: 'Test workspace', after: 'Renamed' },
      coverLayout: { before: 'none', after: 'banner' },
    });
    expect(events[0]?.resource).toEqual({ kind: 'workspace', id: workspace.id });
  });

  it('refuses members below admin with 403 and never updates the slug', async () => {
    const { workspace, member } = await workspaceWithMembers(t, ['member']);
    const refused = await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'No' },
      { token: member.token },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_role');
    const slug = await t.http.patch(
      `/workspaces/${workspace.id}`,
      { slug: 'new-slug' },
      { token: workspace.owner.token },
    );
    expect(slug.status).toBe(400);
    expect(firstIssue(slug.body).path).toBe('/slug');
  });
});

describe('deleting a workspace', () => {
  it('needs the owner and the slug echoed, then removes everything it owns', async () => {
    const { workspace, admin } = await workspaceWithMembers(t, ['admin']);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/workspaces/${workspace.id}/files`,
      headers: {
        authorization: `Bearer ${workspace.owner.token}`,
        'content-type': 'multipart/form-data; boundary=X',
      },
      payload:
        '--X\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--X--\r\n',
    });
    expect(upload.statusCode).toBe(201);
    expect(await readdir(`${t.ctx.config.filesDir}/${workspace.id}`)).toHaveLength(1);

    const byAdmin = await t.http.delete(`/workspaces/${workspace.id}`, {
      token: admin.token,
      body: { slug: workspace.slug },
    });
    expect(byAdmin.status).toBe(403);
    const mismatch = await t.http.delete(`/workspaces/${workspace.id}`, {
      token: workspace.owner.token,
      body: { slug: 'wrong' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('slug_mismatch');

    const deleted = await t.http.delete(`/workspaces/${workspace.id}`, {
      token: workspace.owner.token,
      body: { slug: workspace.slug },
    });
    expect(deleted.status).toBe(204);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}`, { token: workspace.owner.token })).status,
    ).toBe(404);
    for (const table of ['workspace_members', 'statuses', 'events', 'files'] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('workspace_id')
        .where('workspace_id', '=', workspace.id)
        .execute();
      expect(rows, table).toHaveLength(0);
    }
    await expect(readdir(`${t.ctx.config.filesDir}/${workspace.id}`)).rejects.toThrow(/ENOENT/);
  });
});
