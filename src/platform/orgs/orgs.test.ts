import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { orgWithMembers } from '../../../test/fixtures/org.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import { UNKNOWN_ID } from '../../../test/helpers/ids.js';
import {
  addMember,
  createKey,
  createOrg,
  createPlatformTestApp,
  type TestOrg,
} from '../../../test/helpers/platform.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let outsider: TestUser;
let org: TestOrg;

beforeAll(async () => {
  ({ owner, org, outsider } = await orgWithMembers(t, ['outsider'], {
    name: 'Acme',
    ownerName: 'Olivia Owner',
  }));
});

describe('organizations', () => {
  it('answers 401 without a credential on every route', async () => {
    const id = org.id;
    const calls = [
      t.api.get('/orgs'),
      t.api.post('/orgs', { name: 'X' }),
      t.api.get(`/orgs/${id}`),
      t.api.get(`/orgs/${id}/members`),
      t.api.post(`/orgs/${id}/members`, { email: 'a@example.test', role: 'member' }),
      t.api.patch(`/orgs/${id}/members/${owner.user.id}`, { role: 'admin' }),
      t.api.delete(`/orgs/${id}/members/${owner.user.id}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthenticated');
    }
  });

  it('lives under /api only', async () => {
    const response = await t.http.get('/orgs', { token: owner.token });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('route_not_found');
  });

  it('creates an organization with the caller as owner', async () => {
    const response = await t.api.post('/orgs', { name: '  Globex  ' }, { token: owner.token });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      name: 'Globex',
      role: 'owner',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const members = await t.api.get(`/orgs/${response.body.id}/members`, { token: owner.token });
    expect(members.body).toEqual([
      {
        userId: owner.user.id,
        email: owner.user.email,
        name: 'Olivia Owner',
        role: 'owner',
        joinedAt: expect.any(String),
      },
    ]);
  });

  it('validates the organization body', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 1 },
      { name: 'A', slug: 'a' },
    ]) {
      const response = await t.api.post('/orgs', body, { token: owner.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
  });

  it("lists only the caller's organizations", async () => {
    const mine = await t.api.get('/orgs', { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((o: TestOrg) => o.name)).toEqual(['Acme', 'Globex']);
    const theirs = await t.api.get('/orgs', { token: outsider.token });
    expect(theirs.body).toEqual([]);
  });

  it('gets an organization for a member, 404 for anyone else or an unknown id', async () => {
    const got = await t.api.get(`/orgs/${org.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: org.id, name: 'Acme', role: 'owner' });

    const hidden = await t.api.get(`/orgs/${org.id}`, { token: outsider.token });
    const unknown = await t.api.get(`/orgs/${UNKNOWN_ID}`, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(unknown.body);
    expect((await t.api.get('/orgs/not-a-uuid', { token: owner.token })).status).toBe(400);
    expect((await t.api.get(`/orgs/${org.id}/members`, { token: outsider.token })).status).toBe(
      404,
    );
  });

  it('a key reads its own organization without a scope, and no other', async () => {
    const key = await createKey(t, org, owner, ['nodes:read']);
    const list = await t.api.get('/orgs', { token: key.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: org.id, role: 'owner' })]);
    expect((await t.api.get(`/orgs/${org.id}`, { token: key.token })).status).toBe(200);
    const other = await createOrg(t, owner, 'Other');
    expect((await t.api.get(`/orgs/${other.id}`, { token: key.token })).status).toBe(404);
    // Creating organizations and listing members is for people.
    for (const response of [
      await t.api.post('/orgs', { name: 'By key' }, { token: key.token }),
      await t.api.get(`/orgs/${org.id}/members`, { token: key.token }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('session_required');
    }
  });
});

describe('members', () => {
  let team: TestOrg;
  let teamOwner: TestUser;

  beforeAll(async () => {
    teamOwner = await createUser(t);
    team = await createOrg(t, teamOwner, 'Team');
  });

  it('adds an existing account by e-mail, in any case', async () => {
    const person = await createUser(t, { name: 'Mia' });
    const response = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: person.user.email.toUpperCase(), role: 'member' },
      { token: teamOwner.token },
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      userId: person.user.id,
      email: person.user.email,
      name: 'Mia',
      role: 'member',
      joinedAt: expect.any(String),
    });
    const orgs = await t.api.get('/orgs', { token: person.token });
    expect(orgs.body).toEqual([expect.objectContaining({ id: team.id, role: 'member' })]);

    const again = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: person.user.email, role: 'admin' },
      { token: teamOwner.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_member');
  });

  it('refuses an unknown e-mail and bad input', async () => {
    const unknown = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: 'nobody-here@example.test', role: 'member' },
      { token: teamOwner.token },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('account_not_found');
    for (const body of [
      { email: outsider.user.email },
      { email: outsider.user.email, role: 'superuser' },
      { email: outsider.user.email, role: 'member', extra: 1 },
      { role: 'member' },
    ]) {
      const response = await t.api.post(`/orgs/${team.id}/members`, body, {
        token: teamOwner.token,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const badRole = await t.api.patch(
      `/orgs/${team.id}/members/${teamOwner.user.id}`,
      { role: 'root' },
      { token: teamOwner.token },
    );
    expect(badRole.status).toBe(400);
    expect(
      (await t.api.delete(`/orgs/${team.id}/members/not-a-uuid`, { token: teamOwner.token }))
        .status,
    ).toBe(400);
  });

  it('lets only owners and admins manage members, and only owners touch owners', async () => {
    const admin = await addMember(t, team, teamOwner, 'admin');
    const member = await addMember(t, team, teamOwner, 'member');
    const newcomer = await createUser(t);

    const byMember = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: newcomer.user.email, role: 'member' },
      { token: member.token },
    );
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('insufficient_role');

    const adminGrantsOwner = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: newcomer.user.email, role: 'owner' },
      { token: admin.token },
    );
    expect(adminGrantsOwner.status).toBe(403);

    const adminAdds = await t.api.post(
      `/orgs/${team.id}/members`,
      { email: newcomer.user.email, role: 'admin' },
      { token: admin.token },
    );
    expect(adminAdds.status).toBe(201);

    const adminDemotesOwner = await t.api.patch(
      `/orgs/${team.id}/members/${teamOwner.user.id}`,
      { role: 'member' },
      { token: admin.token },
    );
    expect(adminDemotesOwner.status).toBe(403);
    const adminRemovesOwner = await t.api.delete(`/orgs/${team.id}/members/${teamOwner.user.id}`, {
      token: admin.token,
    });
    expect(adminRemovesOwner.status).toBe(403);

    const memberPromotes = await t.api.patch(
      `/orgs/${team.id}/members/${member.user.id}`,
      { role: 'admin' },
      { token: member.token },
    );
    expect(memberPromotes.status).toBe(403);

    const adminPromotes = await t.api.patch(
      `/orgs/${team.id}/members/${member.user.id}`,
      { role: 'admin' },
      { token: admin.token },
    );
    expect(adminPromotes.status).toBe(200);
    expect(adminPromotes.body.role).toBe('admin');

    const adminRemoves = await t.api.delete(`/orgs/${team.id}/members/${newcomer.user.id}`, {
      token: admin.token,
    });
    expect(adminRemoves.status).toBe(204);
    expect((await t.api.get(`/orgs/${team.id}`, { token: newcomer.token })).status).toBe(404);
  });

  it('keeps the last owner (409) and lets a second owner take over', async () => {
    const solo = await createOrg(t, teamOwner, 'Solo');
    const demote = await t.api.patch(
      `/orgs/${solo.id}/members/${teamOwner.user.id}`,
      { role: 'admin' },
      { token: teamOwner.token },
    );
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('last_owner');
    const leave = await t.api.delete(`/orgs/${solo.id}/members/${teamOwner.user.id}`, {
      token: teamOwner.token,
    });
    expect(leave.status).toBe(409);
    expect(leave.body.error.code).toBe('last_owner');

    const second = await addMember(t, solo, teamOwner, 'owner');
    const stepDown = await t.api.patch(
      `/orgs/${solo.id}/members/${teamOwner.user.id}`,
      { role: 'member' },
      { token: teamOwner.token },
    );
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.role).toBe('member');
    const members = await t.api.get(`/orgs/${solo.id}/members`, { token: second.token });
    expect(members.body.map((m: { role: string }) => m.role).sort()).toEqual(['member', 'owner']);
  });

  it('lets any member leave, and answers 404 for someone not a member', async () => {
    const member = await addMember(t, team, teamOwner, 'member');
    const leave = await t.api.delete(`/orgs/${team.id}/members/${member.user.id}`, {
      token: member.token,
    });
    expect(leave.status).toBe(204);
    expect((await t.api.get(`/orgs/${team.id}`, { token: member.token })).status).toBe(404);
    const gone = await t.api.delete(`/orgs/${team.id}/members/${member.user.id}`, {
      token: teamOwner.token,
    });
    expect(gone.status).toBe(404);
    const byOutsider = await t.api.patch(
      `/orgs/${team.id}/members/${teamOwner.user.id}`,
      { role: 'member' },
      { token: outsider.token },
    );
    expect(byOutsider.status).toBe(404);
  });
});
