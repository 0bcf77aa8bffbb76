import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { orgProject, orgWithMembers } from '../../../test/fixtures/org.js';
import { at } from '../../../test/helpers/assert.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import {
  createKey,
  createOrg,
  createPlatformTestApp,
  expectNoSecretLeaks,
  secretValue,
  type TestOrg,
} from '../../../test/helpers/platform.js';
import { decryptProjectSecrets } from './secrets.js';
import { decryptSecretsForWorker } from './worker-secrets.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let org: TestOrg;

beforeAll(async () => {
  ({ owner, org, admin, member } = await orgWithMembers(t, ['admin', 'member'], {
    name: 'Secretive',
  }));
});

const newProject = (name: string) => orgProject(t, org, owner, { name });

async function storedValues(projectId: string) {
  const values = await decryptProjectSecrets(t.db, t.ctx.config, org.id, projectId);
  return Object.fromEntries(values.map(({ name, value }) => [name, value]));
}

describe('secrets in the project PATCH (rule 4)', () => {
  it('writes, replaces and removes by name, keeps the rest, and shows names only', async () => {
    const { id, url } = await newProject('Rule four');
    const token = secretValue('token');
    const password = secretValue('password');
    const first = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'NPM_TOKEN', value: token },
          { name: 'DB_PASSWORD', value: password },
        ],
      },
      { token: owner.token },
    );
    expect(first.status).toBe(200);
    expect(first.body.secrets).toEqual([
      {
        id: expect.any(String),
        name: 'DB_PASSWORD',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      {
        id: expect.any(String),
        name: 'NPM_TOKEN',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(await storedValues(id)).toEqual({ NPM_TOKEN: token, DB_PASSWORD: password });

    const rotated = secretValue('rotated');
    const second = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'NPM_TOKEN', value: rotated },
          { name: 'DB_PASSWORD', value: null },
        ],
      },
      { token: admin.token },
    );
    expect(second.status).toBe(200);
    expect(second.body.secrets.map((s) => s.name)).toEqual(['NPM_TOKEN']);
    expect(at(second.body.secrets, 0).id).toBe(at(first.body.secrets, 1).id);
    expect(await storedValues(id)).toEqual({ NPM_TOKEN: rotated });

    const third = await t.api.patch(
      url,
      { description: 'no secrets named', secrets: [{ name: 'EXTRA', value: '' }] },
      { token: owner.token },
    );
    expect(third.body.secrets.map((s) => s.name)).toEqual(['EXTRA', 'NPM_TOKEN']);
    expect(await storedValues(id)).toEqual({ NPM_TOKEN: rotated, EXTRA: '' });

    // Omitting `secrets`, or sending it empty, keeps every secret.
    await t.api.patch(url, { name: 'Rule four renamed' }, { token: member.token });
    await t.api.patch(url, { secrets: [] }, { token: member.token });
    expect(await storedValues(id)).toEqual({ NPM_TOKEN: rotated, EXTRA: '' });

    // Removing a name that does not exist is not an error.
    const missing = await t.api.patch(
      url,
      { secrets: [{ name: 'NEVER', value: null }] },
      {
        token: owner.token,
      },
    );
    expect(missing.status).toBe(200);
  });

  it('validates secret changes', async () => {
    const { url } = await newProject('Validation');
    const cases = [
      { secrets: [{ name: '1ABC', value: secretValue() }] },
      { secrets: [{ name: 'A-B', value: secretValue() }] },
      { secrets: [{ name: '', value: secretValue() }] },
      { secrets: [{ name: 'A', value: 42 }] },
      { secrets: [{ name: 'A' }] },
      { secrets: [{ name: 'A', value: secretValue(), note: 'x' }] },
      { secrets: [{ name: 'A', value: 'x'.repeat(32769) }] },
      { secrets: { A: secretValue() } },
    ];
    for (const body of cases) {
      const response = await t.api.patch(url, body, { token: owner.token });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    const twice = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'A', value: secretValue() },
          { name: 'A', value: null },
        ],
      },
      { token: owner.token },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('duplicate_secret_name');
  });

  it('is for owners and admins only, and refusing changes nothing else', async () => {
    const { id, url } = await newProject('Members may not');
    const refused = await t.api.patch(
      url,
      { description: 'sneaky', secrets: [{ name: 'API_KEY', value: secretValue() }] },
      { token: member.token },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_role');
    const project = (await t.api.get(url, { token: owner.token })).body;
    expect(project.description).toBeNull();
    expect(project.secrets).toEqual([]);
    expect(await storedValues(id)).toEqual({});

    const onCreate = await t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'Created with secrets', secrets: [{ name: 'A', value: secretValue() }] },
      { token: member.token },
    );
    expect(onCreate.status).toBe(403);
    const byAdmin = await t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'Created with secrets', secrets: [{ name: 'A', value: secretValue('create') }] },
      { token: admin.token },
    );
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.secrets.map((s) => s.name)).toEqual(['A']);
  });

  it('needs secrets:write in addition to projects:write for a key', async () => {
    const { id, url } = await newProject('Scoped');
    const body = { secrets: [{ name: 'DEPLOY_KEY', value: secretValue('key') }] };
    const writer = await createKey(t, org, owner, ['projects:write'], 'org');
    const refused = await t.api.patch(url, body, { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'missing_scope',
      details: { missingScope: 'secrets:write' },
    });
    // Without `secrets`, the same key may PATCH.
    expect((await t.api.patch(url, { description: 'ok' }, { token: writer.token })).status).toBe(
      200,
    );

    const onlySecrets = await createKey(t, org, owner, ['secrets:write'], 'org');
    const noProjects = await t.api.patch(url, body, { token: onlySecrets.token });
    expect(noProjects.status).toBe(403);
    expect(noProjects.body.error.details).toMatchObject({ missingScope: 'projects:write' });

    const memberKey = await createKey(t, org, member, ['projects:write', 'secrets:write']);
    const memberRole = await t.api.patch(url, body, { token: memberKey.token });
    expect(memberRole.status).toBe(403);
    expect(memberRole.body.error.code).toBe('insufficient_role');

    const both = await createKey(t, org, admin, ['projects:write', 'secrets:write']);
    expect((await t.api.patch(url, body, { token: both.token })).status).toBe(200);
    const star = await createKey(t, org, owner, ['*'], 'org');
    const starred = await t.api.patch(
      url,
      { secrets: [{ name: 'STAR', value: secretValue('star') }] },
      { token: star.token },
    );
    expect(starred.status).toBe(200);
    expect(Object.keys(await storedValues(id))).toEqual(['DEPLOY_KEY', 'STAR']);
  });

  it('holds at most 100 secrets per project', async () => {
    const { url } = await newProject('Crowded');
    const hundred = Array.from({ length: 100 }, (_, index) => ({
      name: `S${index}`,
      value: secretValue(`bulk${index}`),
    }));
    expect((await t.api.patch(url, { secrets: hundred }, { token: owner.token })).status).toBe(200);
    const oneMore = await t.api.patch(
      url,
      { secrets: [{ name: 'S100', value: secretValue() }] },
      { token: owner.token },
    );
    expect(oneMore.status).toBe(400);
    expect(oneMore.body.error.code).toBe('too_many_secrets');
    const replace = await t.api.patch(
      url,
      { secrets: [{ name: 'S0', value: secretValue() }] },
      { token: owner.token },
    );
    expect(replace.status).toBe(200);
  });
});

describe('secret routes', () => {
  it('lists names, creates (201), replaces (200, same id) and deletes', async () => {
    const { id, url } = await newProject('Dedicated');
    const created = await t.api.post(
      `${url}/secrets`,
      { name: 'SENTRY_DSN', value: secretValue('dsn') },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'SENTRY_DSN',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const newValue = secretValue('dsn2');
    const replaced = await t.api.post(
      `${url}/secrets`,
      { name: 'SENTRY_DSN', value: newValue },
      { token: admin.token },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(created.body.id);
    expect(await storedValues(id)).toEqual({ SENTRY_DSN: newValue });

    const list = await t.api.get(`${url}/secrets`, { token: member.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([replaced.body]);

    const removed = await t.api.delete(`${url}/secrets/${created.body.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(await storedValues(id)).toEqual({});
    const again = await t.api.delete(`${url}/secrets/${created.body.id}`, { token: owner.token });
    expect(again.status).toBe(404);
  });

  it('validates, refuses members and keeps secrets to their project', async () => {
    const a = await newProject('Project A');
    const b = await newProject('Project B');
    for (const body of [
      { name: 'X' },
      { name: 'x y', value: 'v' },
      { value: 'v' },
      { name: 'X', value: 'v', extra: 1 },
    ]) {
      expect((await t.api.post(`${a.url}/secrets`, body, { token: owner.token })).status).toBe(400);
    }
    const byMember = await t.api.post(
      `${a.url}/secrets`,
      { name: 'X', value: secretValue() },
      { token: member.token },
    );
    expect(byMember.status).toBe(403);
    const secret = await t.api.post(
      `${a.url}/secrets`,
      { name: 'ONLY_A', value: secretValue('a') },
      { token: owner.token },
    );
    expect(
      (await t.api.delete(`${a.url}/secrets/${secret.body.id}`, { token: member.token })).status,
    ).toBe(403);
    expect(
      (await t.api.delete(`${b.url}/secrets/${secret.body.id}`, { token: owner.token })).status,
    ).toBe(404);
    expect((await t.api.delete(`${a.url}/secrets/not-an-id`, { token: owner.token })).status).toBe(
      400,
    );
    const outsider = await createUser(t);
    expect((await t.api.get(`${a.url}/secrets`, { token: outsider.token })).status).toBe(404);
  });

  it('need projects:write and secrets:write for a key to write, projects:read to list', async () => {
    const { url } = await newProject('Key routes');
    const reader = await createKey(t, org, owner, ['projects:read'], 'org');
    expect((await t.api.get(`${url}/secrets`, { token: reader.token })).status).toBe(200);
    const writer = await createKey(t, org, owner, ['projects:write'], 'org');
    const refused = await t.api.post(
      `${url}/secrets`,
      { name: 'K', value: secretValue() },
      { token: writer.token },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toMatchObject({ missingScope: 'secrets:write' });
    const both = await createKey(t, org, owner, ['projects:write', 'secrets:write'], 'org');
    const created = await t.api.post(
      `${url}/secrets`,
      { name: 'K', value: secretValue('k') },
      { token: both.token },
    );
    expect(created.status).toBe(201);
    expect(
      (await t.api.delete(`${url}/secrets/${created.body.id}`, { token: writer.token })).status,
    ).toBe(403);
    expect(
      (await t.api.delete(`${url}/secrets/${created.body.id}`, { token: both.token })).status,
    ).toBe(204);
  });
});

describe('encryption at rest', () => {
  it('stores ciphertext with a fresh nonce and the key id, never the value', async () => {
    const { id, url } = await newProject('At rest');
    const value = secretValue('at-rest');
    await t.api.patch(
      url,
      {
        secrets: [
          { name: 'ONE', value },
          { name: 'TWO', value },
        ],
      },
      {
        token: owner.token,
      },
    );
    const rows = await t.db
      .selectFrom('project_secrets')
      .selectAll()
      .where('owner_id', '=', id)
      .orderBy('name')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(value);
      expect(Buffer.from(row.ciphertext, 'base64').toString('utf8')).not.toContain(value);
      expect(row.key_id).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(rows[0]?.nonce).not.toBe(rows[1]?.nonce);
    expect(rows[0]?.ciphertext).not.toBe(rows[1]?.ciphertext);
    const versions = await t.db
      .selectFrom('project_versions')
      .selectAll()
      .where('project_id', '=', id)
      .execute();
    expect(JSON.stringify(versions)).not.toContain(value);
  });

  it('binds a ciphertext to its project and name', async () => {
    const { id, url } = await newProject('Bound');
    await t.api.patch(
      url,
      {
        secrets: [
          { name: 'A', value: secretValue('a') },
          { name: 'B', value: secretValue('b') },
        ],
      },
      { token: owner.token },
    );
    const a = await t.db
      .selectFrom('project_secrets')
      .select(['ciphertext', 'nonce'])
      .where('owner_id', '=', id)
      .where('name', '=', 'A')
      .executeTakeFirstOrThrow();
    // Copying A's ciphertext onto B (someone with database access) does not give B A's value.
    await t.db
      .updateTable('project_secrets')
      .set(a)
      .where('owner_id', '=', id)
      .where('name', '=', 'B')
      .execute();
    await expect(decryptProjectSecrets(t.db, t.ctx.config, org.id, id)).rejects.toMatchObject({
      code: 'secret_undecryptable',
    });
  });

  it('decrypts for a worker: the project secrets and the user secrets, for members only', async () => {
    const { id, url } = await newProject('Worker');
    const shared = secretValue('shared');
    await t.api.patch(
      url,
      { secrets: [{ name: 'SHARED', value: shared }] },
      { token: owner.token },
    );
    const personal = secretValue('personal');
    const created = await t.api.post(
      '/users/me/secrets',
      { name: 'GITHUB_TOKEN', value: personal },
      { token: member.token },
    );
    expect(created.status).toBe(201);

    const secrets = await decryptSecretsForWorker(t.db, t.ctx.config, {
      orgId: org.id,
      projectId: id,
      userId: member.user.id,
    });
    expect(secrets).toEqual({
      project: [{ name: 'SHARED', value: shared }],
      user: [{ name: 'GITHUB_TOKEN', value: personal }],
    });

    // Someone outside the organization (or nobody: an organization key) lends no secrets.
    const outsider = await createUser(t);
    await t.api.post(
      '/users/me/secrets',
      { name: 'OUTSIDE', value: 'x' },
      { token: outsider.token },
    );
    for (const userId of [outsider.user.id, null]) {
      expect(
        await decryptSecretsForWorker(t.db, t.ctx.config, { orgId: org.id, projectId: id, userId }),
      ).toEqual({ project: [{ name: 'SHARED', value: shared }], user: [] });
    }
    const otherOrg = await createOrg(t, owner, 'Not this one');
    await expect(
      decryptSecretsForWorker(t.db, t.ctx.config, {
        orgId: otherOrg.id,
        projectId: id,
        userId: owner.user.id,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

expectNoSecretLeaks();
