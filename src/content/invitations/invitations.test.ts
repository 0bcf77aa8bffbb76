import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { at } from '../../../test/helpers/assert.js';
import {
  addMember,
  createUser,
  createWorkspace,
  type TestWorkspace,
  uniqueEmail,
} from '../../../test/helpers/factories.js';

const PASSWORD = 'a long enough password';

const t = useApp();

async function invite(
  workspace: TestWorkspace,
  body: Record<string, unknown>,
  token = workspace.owner.token,
) {
  return t.http.post(`/workspaces/${workspace.id}/invitations`, body, { token });
}

describe('invitations', () => {
  it('shows the token once, stores a hash and previews the offer', async () => {
    const workspace = await createWorkspace(t);
    const email = uniqueEmail('Invitee');
    const created = await invite(workspace, { email, role: 'member' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'member', state: 'pending' });
    expect(created.body.token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    const stored = await t.db.selectFrom('workspace_invitations').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.body.token);
    const list = await t.http.get(`/workspaces/${workspace.id}/invitations`, {
      token: workspace.owner.token,
    });
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(created.body.token);
    for (const client of [t.http, t.api]) {
      const preview = await client.get('/auth/invitation', {
        query: { token: created.body.token },
      });
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual({
        workspace: { id: workspace.id, name: 'Test workspace', slug: workspace.slug },
        email,
        role: 'member',
        expiresAt: created.body.expiresAt,
      });
    }
  });

  it('registers with an invitation in invite mode, as a member with the role', async () => {
    const workspace = await createWorkspace(t);
    const email = uniqueEmail('joiner');
    const { token } = (await invite(workspace, { email, role: 'admin' })).body;
    const registered = await t.http.post('/auth/register', {
      email: email.toUpperCase(),
      password: PASSWORD,
      name: 'Joiner',
      invitation: token,
    });
    expect(registered.status).toBe(201);
    const mine = await t.http.get(`/workspaces/${workspace.id}`, {
      token: registered.body.token,
    });
    expect(mine.body.role).toBe('admin');
    const again = await t.http.post('/auth/register', {
      email: uniqueEmail(),
      password: PASSWORD,
      name: 'Second',
      invitation: token,
    });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('invitation_invalid');
    expect((await t.http.get('/auth/invitation', { query: { token } })).status).toBe(404);
    const list = await t.http.get(`/workspaces/${workspace.id}/invitations`, {
      token: workspace.owner.token,
    });
    expect(list.body[0]).toMatchObject({ state: 'accepted', acceptedBy: registered.body.user.id });
  });

  it('refuses another address, a revoked or expired invitation, alike', async () => {
    const workspace = await createWorkspace(t);
    const email = uniqueEmail('target');
    const first = (await invite(workspace, { email, role: 'viewer' })).body;
    const other = await t.http.post('/auth/register', {
      email: uniqueEmail('someone-else'),
      password: PASSWORD,
      name: 'X',
      invitation: first.token,
    });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('invitation_invalid');
    const revoked = await t.http.delete(`/workspaces/${workspace.id}/invitations/${first.id}`, {
      token: workspace.owner.token,
    });
    expect(revoked.status).toBe(204);
    const expired = (await invite(workspace, { email, role: 'viewer' })).body;
    await t.db
      .updateTable('workspace_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    const answers = [];
    for (const token of [first.token, expired.token, 'inv_never_issued_token_value']) {
      answers.push((await t.http.get('/auth/invitation', { query: { token } })).body);
      const register = await t.http.post('/auth/register', {
        email,
        password: PASSWORD,
        name: 'X',
        invitation: token,
      });
      expect(register.status).toBe(403);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[1]).toEqual(answers[2]);
    expect(at(answers, 0).error.code).toBe('not_found');
    expect((await t.http.get('/auth/invitation', { query: { token: '' } })).status).toBe(400);
    expect(
      (await t.http.get('/auth/invitation', { query: { token: 'x'.repeat(201) } })).status,
    ).toBe(400);
  });

  it('lets a signed-in account join with an invitation for its address, once', async () => {
    const workspace = await createWorkspace(t);
    const person = await createUser(t, { email: uniqueEmail('Joiner') });
    const stranger = await createUser(t, { email: uniqueEmail('stranger') });
    const created = (
      await invite(workspace, { email: person.user.email.toUpperCase(), role: 'admin' })
    ).body;
    const byStranger = await t.http.post(
      '/auth/invitation/accept',
      { token: created.token },
      { token: stranger.token },
    );
    expect(byStranger.status).toBe(403);
    expect(byStranger.body.error.code).toBe('invitation_invalid');
    expect((await t.http.post('/auth/invitation/accept', { token: created.token })).status).toBe(
      401,
    );
    for (const client of [t.http, t.api]) {
      const joined = await client.post(
        '/auth/invitation/accept',
        { token: created.token },
        { token: person.token },
      );
      if (client === t.http) {
        expect(joined.status, joined.text).toBe(200);
        expect(joined.body).toEqual({
          workspace: { id: workspace.id, name: 'Test workspace', slug: workspace.slug },
          role: 'admin',
        });
      } else {
        // Used up: a second join is refused like any dead invitation.
        expect(joined.status).toBe(403);
        expect(joined.body.error.code).toBe('invitation_invalid');
      }
    }
    const membership = await t.http.get(`/workspaces/${workspace.id}`, { token: person.token });
    expect(membership.body.role).toBe('admin');
    // An owner who accepts an invitation for a lower role stays owner.
    const owner = workspace.owner;
    const lower = (await invite(workspace, { email: owner.user.email, role: 'viewer' })).body;
    const kept = await t.http.post(
      '/auth/invitation/accept',
      { token: lower.token },
      { token: owner.token },
    );
    expect(kept.body.role).toBe('owner');
  });

  it('is for signed-in admins only, within their own role', async () => {
    const workspace = await createWorkspace(t);
    expect(
      (
        await t.http.post(`/workspaces/${workspace.id}/invitations`, {
          email: uniqueEmail(),
          role: 'viewer',
        })
      ).status,
    ).toBe(401);
    expect((await invite(workspace, { email: 'not-an-email', role: 'viewer' })).status).toBe(400);
    expect((await invite(workspace, { email: uniqueEmail(), role: 'boss' })).status).toBe(400);
    const member = await addMember(t, workspace, 'member');
    expect(
      (await invite(workspace, { email: uniqueEmail(), role: 'viewer' }, member.token)).status,
    ).toBe(403);
    const admin = await addMember(t, workspace, 'admin');
    const tooHigh = await invite(workspace, { email: uniqueEmail(), role: 'owner' }, admin.token);
    expect(tooHigh.status).toBe(403);
    expect(tooHigh.body.error.code).toBe('role_above_inviter');
    const key = (
      await t.http.post(
        `/workspaces/${workspace.id}/api-keys`,
        { name: 'K', role: 'admin' },
        { token: workspace.owner.token },
      )
    ).body.token;
    const byKey = await invite(workspace, { email: uniqueEmail(), role: 'viewer' }, key);
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('session_required');
    const outsider = await createUser(t);
    expect(
      (await invite(workspace, { email: uniqueEmail(), role: 'viewer' }, outsider.token)).status,
    ).toBe(404);
  });
});
