import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { twoTenants } from '../../../test/fixtures/org.js';
import type { TestUser } from '../../../test/helpers/factories.js';
import { UNKNOWN_ID } from '../../../test/helpers/ids.js';
import {
  createKey,
  createPlatformTestApp,
  expectNoSecretLeaks,
  secretValue,
  type TestOrg,
} from '../../../test/helpers/platform.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let org: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  ({ owner, member, outsider, org, otherOrg } = await twoTenants(t, 'Deploy Org', 'Other Org'));
});

const deploymentsUrl = (orgId = org.id) => `/orgs/${orgId}/deployments` as const;

async function createDeployment(body: Record<string, unknown>, token = owner.token) {
  const response = await t.api.post(deploymentsUrl(), body, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('deployments', () => {
  it('answers 401 without a credential on every route', async () => {
    const one = `${deploymentsUrl()}/${UNKNOWN_ID}`;
    const responses = await Promise.all([
      t.api.get(deploymentsUrl()),
      t.api.post(deploymentsUrl(), { name: 'x' }),
      t.api.get(one),
      t.api.patch(one, { name: 'x' }),
      t.api.delete(one),
      t.api.get(`${one}/services`),
      t.api.post(`${one}/services`, { name: 'x', source: { type: 'image', image: 'busybox' } }),
      t.api.get(`${one}/services/${UNKNOWN_ID}`),
      t.api.patch(`${one}/services/${UNKNOWN_ID}`, { name: 'x' }),
      t.api.delete(`${one}/services/${UNKNOWN_ID}`),
      t.api.get(`/orgs/${org.id}/services`),
    ]);
    for (const response of responses) expect(response.status).toBe(401);
  });

  it('creates, lists, reads and finds a deployment by name', async () => {
    const created = await createDeployment({
      name: '  Shop backend ',
      description: 'The shop',
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info' },
      secrets: [{ name: 'DATABASE_URL', value: secretValue('db') }],
    });
    expect(created).toEqual({
      id: expect.any(String),
      orgId: org.id,
      name: 'Shop backend',
      description: 'The shop',
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info' },
      secrets: [
        {
          id: expect.any(String),
          name: 'DATABASE_URL',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ],
      state: 'empty',
      serviceCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await t.api.get(`${deploymentsUrl()}/${created.id}`, { token: member.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
    await createDeployment({ name: 'Analytics' });
    const found = await t.api.get(`${deploymentsUrl()}?q=BACK`, { token: member.token });
    expect(found.body.map((deployment) => deployment.name)).toEqual(['Shop backend']);
    const all = await t.api.get(deploymentsUrl(), { token: member.token });
    expect(all.body.map((deployment) => deployment.name)).toEqual(['Analytics', 'Shop backend']);
    const literal = await t.api.get(`${deploymentsUrl()}?q=%25`, { token: member.token });
    expect(literal.body).toEqual([]);
  });

  it('refuses a second deployment of the same name, whatever its case (409)', async () => {
    await createDeployment({ name: 'Unique name' });
    const again = await t.api.post(
      deploymentsUrl(),
      { name: 'UNIQUE NAME' },
      { token: owner.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('deployment_name_taken');
  });

  it('follows the PATCH rules: named fields only, env replaced whole, blank text clears', async () => {
    const created = await createDeployment({
      name: 'Patch me',
      description: 'Something',
      env: { A: '1', B: '2' },
    });
    const url = `${deploymentsUrl()}/${created.id}` as const;
    const renamed = await t.api.patch(url, { name: 'Patched' }, { token: member.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Patched',
      description: 'Something',
      env: { A: '1', B: '2' },
    });
    const replaced = await t.api.patch(
      url,
      { env: { C: '3' }, description: '   ' },
      { token: member.token },
    );
    expect(replaced.body).toMatchObject({ name: 'Patched', description: null, env: { C: '3' } });
    const emptied = await t.api.patch(url, { env: {} }, { token: member.token });
    expect(emptied.body.env).toEqual({});
    const bad = await t.api.patch(url, { env: { '1BAD': 'x' } }, { token: member.token });
    expect(bad.status).toBe(400);
  });

  it('writes secrets by name and removes them by null; members and unscoped keys may not', async () => {
    const created = await createDeployment({ name: 'Secrets' });
    const url = `${deploymentsUrl()}/${created.id}` as const;
    const written = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'TOKEN', value: secretValue('t1') },
          { name: 'OTHER', value: secretValue('o') },
        ],
      },
      { token: owner.token },
    );
    expect(written.body.secrets.map((secret) => secret.name)).toEqual(['OTHER', 'TOKEN']);
    const removed = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'OTHER', value: null },
          { name: 'TOKEN', value: secretValue('t2') },
        ],
      },
      { token: owner.token },
    );
    expect(removed.body.secrets.map((secret) => secret.name)).toEqual(['TOKEN']);
    const twice = await t.api.patch(
      url,
      {
        secrets: [
          { name: 'X', value: 'a' },
          { name: 'X', value: null },
        ],
      },
      { token: owner.token },
    );
    expect(twice.body.error.code).toBe('duplicate_secret_name');
    const byMember = await t.api.patch(
      url,
      { secrets: [{ name: 'TOKEN', value: secretValue('m') }] },
      { token: member.token },
    );
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe('insufficient_role');
    const key = await createKey(t, org, owner, ['deployments:write']);
    const byKey = await t.api.patch(
      url,
      { secrets: [{ name: 'TOKEN', value: secretValue('k') }] },
      { token: key.token },
    );
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('missing_scope');
    const scoped = await createKey(t, org, owner, ['deployments:write', 'secrets:write']);
    const byScoped = await t.api.patch(
      url,
      { secrets: [{ name: 'TOKEN', value: secretValue('s') }] },
      { token: scoped.token },
    );
    expect(byScoped.status).toBe(200);
  });

  it('checks key scopes: read for GET, write for the rest', async () => {
    const reader = await createKey(t, org, owner, ['deployments:read']);
    const listed = await t.api.get(deploymentsUrl(), { token: reader.token });
    expect(listed.status).toBe(200);
    const created = await t.api.post(
      deploymentsUrl(),
      { name: 'By reader' },
      { token: reader.token },
    );
    expect(created.status).toBe(403);
    expect(created.body.error.code).toBe('missing_scope');
    const projectsOnly = await createKey(t, org, owner, ['projects:read']);
    const refused = await t.api.get(deploymentsUrl(), { token: projectsOnly.token });
    expect(refused.status).toBe(403);
    const writer = await createKey(t, org, owner, ['deployments:write']);
    const byWriter = await t.api.post(
      deploymentsUrl(),
      { name: 'By writer' },
      { token: writer.token },
    );
    expect(byWriter.status).toBe(201);
  });

  it('hides another organization’s deployments (404) and refuses outsiders (404 for the org)', async () => {
    const created = await createDeployment({ name: 'Private to org' });
    const foreignKey = await createKey(t, otherOrg, outsider, ['*']);
    const viaOtherOrg = await t.api.get(`${deploymentsUrl(otherOrg.id)}/${created.id}`, {
      token: outsider.token,
    });
    expect(viaOtherOrg.status).toBe(404);
    const keyOnThisOrg = await t.api.get(`${deploymentsUrl()}/${created.id}`, {
      token: foreignKey.token,
    });
    expect([403, 404]).toContain(keyOnThisOrg.status);
    const outsiderHere = await t.api.get(deploymentsUrl(), { token: outsider.token });
    expect(outsiderHere.status).toBe(404);
    const patch = await t.api.patch(
      `${deploymentsUrl(otherOrg.id)}/${created.id}`,
      { name: 'stolen' },
      { token: outsider.token },
    );
    expect(patch.status).toBe(404);
  });

  it('lets owners and admins delete a deployment with its services, not members', async () => {
    const created = await createDeployment({ name: 'Doomed' });
    const url = `${deploymentsUrl()}/${created.id}` as const;
    const service = await t.api.post(
      `${url}/services`,
      { name: 'web', source: { type: 'image', image: 'busybox:1.36' } },
      { token: member.token },
    );
    expect(service.status).toBe(201);
    const byMember = await t.api.delete(url, { token: member.token });
    expect(byMember.status).toBe(403);
    const byOwner = await t.api.delete(url, { token: owner.token });
    expect(byOwner.status).toBe(204);
    expect((await t.api.get(url, { token: owner.token })).status).toBe(404);
    const services = await t.api.get(`/orgs/${org.id}/services?q=web`, { token: owner.token });
    expect(services.body.filter((one) => one.deploymentId === created.id)).toEqual([]);
  });

  it('refuses to delete a deployment whose service runs (409)', async () => {
    const created = await createDeployment({ name: 'Still running' });
    const url = `${deploymentsUrl()}/${created.id}` as const;
    const service = await t.api.post(
      `${url}/services`,
      { name: 'web', source: { type: 'image', image: 'busybox:1.36' } },
      { token: owner.token },
    );
    await t.db
      .updateTable('services')
      .set({ state: 'running' })
      .where('id', '=', service.body.id)
      .execute();
    const refused = await t.api.delete(url, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('deployment_running');
    const read = await t.api.get(url, { token: owner.token });
    expect(read.body).toMatchObject({ state: 'running', serviceCount: 1 });
    const serviceDelete = await t.api.delete(`${url}/services/${service.body.id}`, {
      token: owner.token,
    });
    expect(serviceDelete.status).toBe(409);
    expect(serviceDelete.body.error.code).toBe('service_running');
  });
});

expectNoSecretLeaks();
