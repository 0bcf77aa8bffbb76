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

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let org: TestOrg;

beforeAll(async () => {
  ({ owner, org } = await orgWithMembers(t, [], { name: 'Versioned' }));
});

const newProject = (body: Record<string, unknown>) => orgProject(t, org, owner, body);

async function patch<P extends string>(url: P, body: Record<string, unknown>, token = owner.token) {
  const response = await t.api.patch(url, body, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('project versions', () => {
  it('records each configuration change as a numbered version, secrets never', async () => {
    const { url } = await newProject({ name: 'History', forwardPorts: [3000] });
    expect((await patch(url, { description: 'First' })).version).toBe(2);
    // No change, an empty PATCH and secret changes make no version.
    expect((await patch(url, { description: 'First' })).version).toBe(2);
    expect((await patch(url, {})).version).toBe(2);
    const secret = secretValue('versioned');
    expect((await patch(url, { secrets: [{ name: 'TOKEN', value: secret }] })).version).toBe(2);
    expect((await patch(url, { forwardPorts: [] })).version).toBe(3);

    const page = await t.api.get(`${url}/versions`, { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body.nextBefore).toBeNull();
    expect(page.body.versions.map((v) => [v.version, v.action])).toEqual([
      [3, 'update'],
      [2, 'update'],
      [1, 'create'],
    ]);
    expect(page.body.versions[2]).toEqual({
      version: 1,
      action: 'create',
      restoredFrom: null,
      config: {
        name: 'History',
        description: null,
        repositories: [],
        features: {},
        extensions: [],
        forwardPorts: [3000],
      },
      createdBy: { userId: owner.user.id, apiKeyId: null },
      createdAt: expect.any(String),
    });
    expect(at(page.body.versions, 0).config).toMatchObject({
      description: 'First',
      forwardPorts: [],
    });
    expect(JSON.stringify(page.body)).not.toContain('TOKEN');

    const one = await t.api.get(`${url}/versions/2`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page.body.versions[1]);
  });

  it('pages newest first with limit and before', async () => {
    const { url } = await newProject({ name: 'Paged' });
    for (let port = 1; port <= 4; port++) await patch(url, { forwardPorts: [port] });
    const first = await t.api.get(`${url}/versions`, { token: owner.token, query: { limit: '2' } });
    expect(first.body.versions.map((v) => v.version)).toEqual([5, 4]);
    expect(first.body.nextBefore).toBe(4);
    const second = await t.api.get(`${url}/versions`, {
      token: owner.token,
      query: { limit: '2', before: String(first.body.nextBefore) },
    });
    expect(second.body.versions.map((v) => v.version)).toEqual([3, 2]);
    expect(second.body.nextBefore).toBe(2);
    const last = await t.api.get(`${url}/versions`, {
      token: owner.token,
      query: { limit: '2', before: '2' },
    });
    expect(last.body).toMatchObject({ versions: [{ version: 1 }], nextBefore: null });
  });

  it('validates the query and the version number', async () => {
    const { url } = await newProject({ name: 'Validated' });
    const queries: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { limit: 'many' },
      { before: '0' },
      { page: '2' },
    ];
    for (const query of queries) {
      const response = await t.api.get(`${url}/versions`, { token: owner.token, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
    }
    for (const version of ['0', '-1', 'one', '1.5', '99999999999']) {
      const response = await t.api.get(`${url}/versions/${version}`, { token: owner.token });
      expect(response.status, version).toBe(400);
    }
    const missing = await t.api.get(`${url}/versions/7`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect((await t.api.post(`${url}/versions/7/restore`, {}, { token: owner.token })).status).toBe(
      404,
    );
  });

  it('restores an old configuration as a new version and keeps the current secrets', async () => {
    const { id, url } = await newProject({
      name: 'Restorable',
      description: 'Original',
      extensions: ['ms-python.python'],
      repositories: [{ url: 'https://example.test/app.git', branch: 'main' }],
    });
    const kept = secretValue('kept');
    await patch(url, {
      description: '',
      extensions: [],
      repositories: [],
      secrets: [{ name: 'KEPT', value: kept }],
    });
    const restored = await t.api.post(`${url}/versions/1/restore`, {}, { token: owner.token });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      name: 'Restorable',
      description: 'Original',
      extensions: ['ms-python.python'],
      repositories: [{ url: 'https://example.test/app.git', branch: 'main' }],
      version: 3,
      secrets: [{ name: 'KEPT' }],
    });
    expect(await decryptProjectSecrets(t.db, t.ctx.config, org.id, id)).toEqual([
      { name: 'KEPT', value: kept },
    ]);
    const latest = await t.api.get(`${url}/versions/3`, { token: owner.token });
    expect(latest.body).toMatchObject({ action: 'restore', restoredFrom: 1 });

    // Restoring what is already current changes nothing.
    const again = await t.api.post(`${url}/versions/1/restore`, {}, { token: owner.token });
    expect(again.body.version).toBe(3);
  });

  it('refuses to restore a name another project took meanwhile (409)', async () => {
    const { url } = await newProject({ name: 'Old name' });
    await patch(url, { name: 'New name' });
    await newProject({ name: 'Old name' });
    const response = await t.api.post(`${url}/versions/1/restore`, {}, { token: owner.token });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('project_name_taken');
  });

  it('reads history with projects:read, restores with projects:write, and records the key', async () => {
    const { url } = await newProject({ name: 'Keyed history' });
    await patch(url, { description: 'v2' });
    const reader = await createKey(t, org, owner, ['projects:read']);
    expect((await t.api.get(`${url}/versions`, { token: reader.token })).status).toBe(200);
    expect((await t.api.get(`${url}/versions/1`, { token: reader.token })).status).toBe(200);
    const refused = await t.api.post(`${url}/versions/1/restore`, {}, { token: reader.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toMatchObject({ missingScope: 'projects:write' });

    const writer = await createKey(t, org, owner, ['projects:write'], 'org');
    expect((await t.api.get(`${url}/versions`, { token: writer.token })).status).toBe(403);
    const restored = await t.api.post(`${url}/versions/1/restore`, {}, { token: writer.token });
    expect(restored.status).toBe(200);
    const version = await t.api.get(`${url}/versions/3`, { token: owner.token });
    expect(version.body.createdBy).toEqual({ userId: null, apiKeyId: writer.id });
  });

  it('answers 404 to outsiders and to keys of other organizations', async () => {
    const { url } = await newProject({ name: 'Private history' });
    const outsider = await createUser(t);
    expect((await t.api.get(`${url}/versions`, { token: outsider.token })).status).toBe(404);
    expect(
      (await t.api.post(`${url}/versions/1/restore`, {}, { token: outsider.token })).status,
    ).toBe(404);
    const elsewhere = await createOrg(t, owner, 'Elsewhere');
    const foreignKey = await createKey(t, elsewhere, owner, ['*'], 'org');
    expect((await t.api.get(`${url}/versions/1`, { token: foreignKey.token })).status).toBe(404);
  });
});

expectNoSecretLeaks();
