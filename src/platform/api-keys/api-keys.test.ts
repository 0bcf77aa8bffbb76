import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { orgWithMembers } from '../../../test/fixtures/org.js';
import { probeModule } from '../../../test/foundation/probe-module.js';
import { firstIssue, present } from '../../../test/helpers/assert.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import {
  addMember,
  createKey,
  createOrg,
  createPlatformTestApp,
  type TestOrg,
} from '../../../test/helpers/platform.js';
import { hashToken } from '../../lib/tokens.js';

const t = useApp(() => createPlatformTestApp({}, [probeModule]));
let owner: TestUser;
let org: TestOrg;

beforeAll(async () => {
  ({ owner, org } = await orgWithMembers(t, [], { name: 'Keys Inc' }));
});

const keysUrl = () => `/orgs/${org.id}/api-keys` as const;

describe('creating keys', () => {
  it('answers 401 without a credential', async () => {
    expect((await t.api.get(keysUrl())).status).toBe(401);
    expect(
      (await t.api.post(keysUrl(), { name: 'k', ownerType: 'user', scopes: ['*'] })).status,
    ).toBe(401);
    expect((await t.api.delete(`${keysUrl()}/0190d6e2-3c4b-7def-8123-456789abcdef`)).status).toBe(
      401,
    );
  });

  it('returns the token once, stores only its SHA-256 and lists only its prefix', async () => {
    const response = await t.api.post(
      keysUrl(),
      { name: ' CI ', ownerType: 'user', scopes: ['projects:read', 'workers:exec'] },
      { token: owner.token },
    );
    expect(response.status).toBe(201);
    const { token } = response.body;
    expect(token).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
    expect(response.body).toEqual({
      id: expect.any(String),
      orgId: org.id,
      name: 'CI',
      ownerType: 'user',
      scopes: ['projects:read', 'workers:exec'],
      tokenPrefix: token.slice(0, 8),
      createdBy: owner.user.id,
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      active: true,
      token,
    });

    const row = await t.db
      .selectFrom('org_api_keys')
      .selectAll()
      .where('id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const list = await t.api.get(keysUrl(), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(token);
    const listed = list.body.find((key) => key.id === response.body.id);
    expect(listed).toEqual({ ...response.body, token: undefined });
    expect(listed).not.toHaveProperty('token');
  });

  it('validates name, owner type and scopes against the scope table', async () => {
    const cases = [
      { name: 'k', ownerType: 'user', scopes: ['projects:admin'] },
      { name: 'k', ownerType: 'user', scopes: ['items:read'] },
      { name: 'k', ownerType: 'user', scopes: [] },
      { name: 'k', ownerType: 'user', scopes: ['*', '*'] },
      { name: 'k', ownerType: 'user' },
      { name: 'k', ownerType: 'team', scopes: ['*'] },
      { name: '', ownerType: 'user', scopes: ['*'] },
      { name: '  ', ownerType: 'user', scopes: ['*'] },
      { name: 'k', ownerType: 'user', scopes: ['*'], expiresAt: '2030-01-01' },
    ];
    for (const body of cases) {
      const response = await t.api.post(keysUrl(), body, { token: owner.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    const unknownScope = await t.api.post(
      keysUrl(),
      { name: 'k', ownerType: 'user', scopes: ['projects:read', 'projects:admin'] },
      { token: owner.token },
    );
    expect(firstIssue(unknownScope.body).path).toBe('/scopes/1');
  });

  it('lets any member create a personal key, but only owners and admins an org key', async () => {
    const member = await addMember(t, org, owner, 'member');
    const admin = await addMember(t, org, owner, 'admin');
    const personal = await t.api.post(
      keysUrl(),
      { name: 'mine', ownerType: 'user', scopes: ['projects:read'] },
      { token: member.token },
    );
    expect(personal.status).toBe(201);
    const orgKey = await t.api.post(
      keysUrl(),
      { name: 'service', ownerType: 'org', scopes: ['projects:read'] },
      { token: member.token },
    );
    expect(orgKey.status).toBe(403);
    expect(orgKey.body.error.code).toBe('insufficient_role');
    const byAdmin = await t.api.post(
      keysUrl(),
      { name: 'service', ownerType: 'org', scopes: ['projects:read'] },
      { token: admin.token },
    );
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.ownerType).toBe('org');
  });

  it('answers 404 to someone outside the organization', async () => {
    const outsider = await createUser(t);
    const response = await t.api.post(
      keysUrl(),
      { name: 'k', ownerType: 'user', scopes: ['*'] },
      { token: outsider.token },
    );
    expect(response.status).toBe(404);
    expect((await t.api.get(keysUrl(), { token: outsider.token })).status).toBe(404);
  });

  it('refuses key management to a key, even one with every scope', async () => {
    const key = await createKey(t, org, owner, ['*'], 'org');
    const calls = [
      t.api.get(keysUrl(), { token: key.token }),
      t.api.post(keysUrl(), { name: 'k', ownerType: 'org', scopes: ['*'] }, { token: key.token }),
      t.api.delete(`${keysUrl()}/${key.id}`, { token: key.token }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('session_required');
    }
  });
});

describe('listing and revoking', () => {
  it('shows members their own keys and owners and admins every key', async () => {
    const team = await createOrg(t, owner, 'Listing');
    const member = await addMember(t, team, owner, 'member');
    const mine = await createKey(t, team, member, ['projects:read']);
    const ownerKey = await createKey(t, team, owner, ['nodes:read'], 'org');

    const memberList = await t.api.get(`/orgs/${team.id}/api-keys`, { token: member.token });
    expect(memberList.body.map((key) => key.id)).toEqual([mine.id]);
    const ownerList = await t.api.get(`/orgs/${team.id}/api-keys`, { token: owner.token });
    expect(ownerList.body.map((key) => key.id)).toEqual([ownerKey.id, mine.id]);

    // A member cannot see, so cannot revoke, someone else's key.
    const refused = await t.api.delete(`/orgs/${team.id}/api-keys/${ownerKey.id}`, {
      token: member.token,
    });
    expect(refused.status).toBe(404);
    expect((await t.api.get(`/orgs/${team.id}`, { token: ownerKey.token })).status).toBe(200);
  });

  it('revokes at once: the next request is 401, the row stays listed', async () => {
    const key = await createKey(t, org, owner, ['projects:read']);
    expect((await t.api.get(`/orgs/${org.id}/projects`, { token: key.token })).status).toBe(200);

    const revoke = await t.api.delete(`${keysUrl()}/${key.id}`, { token: owner.token });
    expect(revoke.status).toBe(204);
    const after = await t.api.get(`/orgs/${org.id}/projects`, { token: key.token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_token');

    const listed = present(
      (await t.api.get(keysUrl(), { token: owner.token })).body.find((row) => row.id === key.id),
    );
    expect(listed.revokedAt).toEqual(expect.any(String));
    expect(listed.active).toBe(false);

    const again = await t.api.delete(`${keysUrl()}/${key.id}`, { token: owner.token });
    expect(again.status).toBe(204);
    const relisted = present(
      (await t.api.get(keysUrl(), { token: owner.token })).body.find((row) => row.id === key.id),
    );
    expect(relisted.revokedAt).toBe(listed.revokedAt);
  });

  it("answers 404 for an unknown key or another organization's key, 400 for a bad id", async () => {
    const other = await createOrg(t, owner, 'Elsewhere');
    const foreign = await createKey(t, other, owner, ['*']);
    const response = await t.api.delete(`${keysUrl()}/${foreign.id}`, { token: owner.token });
    expect(response.status).toBe(404);
    expect((await t.api.get(`/orgs/${other.id}`, { token: foreign.token })).status).toBe(200);
    expect((await t.api.delete(`${keysUrl()}/nope`, { token: owner.token })).status).toBe(400);
  });
});

describe('authenticating with a key', () => {
  it('answers 401 for an unknown or malformed key', async () => {
    for (const token of ['spk_unknown-unknown-unknown', 'spk_bad!chars', 'spk_']) {
      const response = await t.api.get(`/orgs/${org.id}`, { token });
      expect(response.status, token).toBe(401);
    }
  });

  it('a personal key acts as its creator and dies when they leave, for good', async () => {
    const team = await createOrg(t, owner, 'Departures');
    const leaver = await addMember(t, team, owner, 'admin');
    const personal = await createKey(t, team, leaver, ['*']);
    const service = await createKey(t, team, leaver, ['*'], 'org');

    const who = await t.api.get('/orgs', { token: personal.token });
    expect(who.body).toEqual([expect.objectContaining({ id: team.id, role: 'admin' })]);
    const asOrg = await t.api.get('/orgs', { token: service.token });
    expect(asOrg.body).toEqual([expect.objectContaining({ id: team.id, role: 'admin' })]);

    // The creator's role is the key's role: demoted, the key is demoted too.
    await t.api.patch(
      `/orgs/${team.id}/members/${leaver.user.id}`,
      { role: 'member' },
      { token: owner.token },
    );
    const demoted = await t.api.get(`/orgs/${team.id}`, { token: personal.token });
    expect(demoted.body.role).toBe('member');

    const removed = await t.api.delete(`/orgs/${team.id}/members/${leaver.user.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect((await t.api.get(`/orgs/${team.id}`, { token: personal.token })).status).toBe(401);
    expect((await t.api.get(`/orgs/${team.id}`, { token: service.token })).status).toBe(200);

    // Coming back does not bring the old personal key back.
    await t.api.post(
      `/orgs/${team.id}/members`,
      { email: leaver.user.email, role: 'admin' },
      { token: owner.token },
    );
    expect((await t.api.get(`/orgs/${team.id}`, { token: personal.token })).status).toBe(401);

    const keys = (await t.api.get(`/orgs/${team.id}/api-keys`, { token: owner.token })).body;
    const byId = new Map(keys.map((key) => [key.id, key]));
    expect(byId.get(personal.id)).toMatchObject({ active: false, revokedAt: null });
    expect(byId.get(service.id)).toMatchObject({ active: true, ownerType: 'org' });
  });

  it('works in its own organization only: another organization is 404', async () => {
    const mine = await createOrg(t, owner, 'Mine');
    const theirs = await createOrg(t, owner, 'Theirs');
    const project = await t.api.post(
      `/orgs/${theirs.id}/projects`,
      { name: 'Secret plans' },
      { token: owner.token },
    );
    const key = await createKey(t, mine, owner, ['*'], 'org');
    const calls = [
      t.api.get(`/orgs/${theirs.id}`, { token: key.token }),
      t.api.get(`/orgs/${theirs.id}/projects`, { token: key.token }),
      t.api.get(`/orgs/${theirs.id}/projects/${project.body.id}`, { token: key.token }),
      t.api.patch(
        `/orgs/${theirs.id}/projects/${project.body.id}`,
        { name: 'x' },
        { token: key.token },
      ),
      t.api.post(`/orgs/${theirs.id}/projects`, { name: 'Intrusion' }, { token: key.token }),
      // Its own organization id with another organization's project id.
      t.api.get(`/orgs/${mine.id}/projects/${project.body.id}`, { token: key.token }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    const list = await t.api.get('/orgs', { token: key.token });
    expect(list.body.map((o: TestOrg) => o.id)).toEqual([mine.id]);
  });

  it("needs the route's scope: 403 naming the missing scope", async () => {
    const key = await createKey(t, org, owner, ['projects:read']);
    const read = await t.api.get(`/orgs/${org.id}/projects`, { token: key.token });
    expect(read.status).toBe(200);
    const write = await t.api.post(`/orgs/${org.id}/projects`, { name: 'P' }, { token: key.token });
    expect(write.status).toBe(403);
    expect(write.body.error).toEqual({
      code: 'missing_scope',
      message: 'This API key lacks the scope projects:write',
      details: { missingScope: 'projects:write', requiredScopes: ['projects:write'] },
    });
    const star = await createKey(t, org, owner, ['*']);
    expect(
      (await t.api.post(`/orgs/${org.id}/projects`, { name: 'Starred' }, { token: star.token }))
        .status,
    ).toBe(201);
  });

  it('is refused on the content API and on session-only platform routes', async () => {
    const key = await createKey(t, org, owner, ['*'], 'org');
    for (const client of [t.http, t.api]) {
      const content = await client.get('/probe/who', { token: key.token });
      expect(content.status).toBe(403);
      expect(content.body.error.code).toBe('key_not_allowed');
      const me = await client.get('/auth/me', { token: key.token });
      expect(me.status).toBe(403);
      expect(me.body.error.code).toBe('session_required');
    }
    expect((await t.http.get('/probe/who', { token: owner.token })).status).toBe(200);
    for (const response of [
      await t.api.get('/users/me', { token: key.token }),
      await t.api.patch('/users/me', { dotfilesRepo: '' }, { token: key.token }),
      await t.api.get('/users/me/secrets', { token: key.token }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('session_required');
    }
  });

  it('records lastUsedAt, written at most once a minute', async () => {
    const key = await createKey(t, org, owner, ['projects:read']);
    const lastUsed = async () =>
      (
        await t.db
          .selectFrom('org_api_keys')
          .select('last_used_at')
          .where('id', '=', key.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();

    await t.api.get(`/orgs/${org.id}`, { token: key.token });
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    const listed = present(
      (await t.api.get(keysUrl(), { token: owner.token })).body.find((row) => row.id === key.id),
    );
    expect(listed.lastUsedAt).toBe(first?.toISOString());

    // Used 30 seconds ago: not written again.
    const recent = new Date(Date.now() - 30_000);
    await t.db
      .updateTable('org_api_keys')
      .set({ last_used_at: recent })
      .where('id', '=', key.id)
      .execute();
    await t.api.get(`/orgs/${org.id}`, { token: key.token });
    expect(await lastUsed()).toEqual(recent);

    // Used two minutes ago: written.
    const old = new Date(Date.now() - 120_000);
    await t.db
      .updateTable('org_api_keys')
      .set({ last_used_at: old })
      .where('id', '=', key.id)
      .execute();
    await t.api.get(`/orgs/${org.id}`, { token: key.token });
    expect((await lastUsed())?.getTime()).toBeGreaterThan(old.getTime() + 60_000);
  });
});
