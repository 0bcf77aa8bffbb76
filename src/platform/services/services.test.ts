import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { twoTenants } from '../../../test/fixtures/org.js';
import type { TestUser } from '../../../test/helpers/factories.js';
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
let servicesUrl: `/orgs/${string}/deployments/${string}/services`;

const IMAGE = { type: 'image', image: 'busybox:1.36' } as const;

beforeAll(async () => {
  ({ owner, member, outsider, org, otherOrg } = await twoTenants(t, 'Services Org', 'Elsewhere'));
  const deployment = await t.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Shop' },
    { token: owner.token },
  );
  servicesUrl = `/orgs/${org.id}/deployments/${deployment.body.id}/services`;
});

async function addService(body: Record<string, unknown>, token = owner.token) {
  const response = await t.api.post(servicesUrl, { source: IMAGE, ...body }, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

describe('services of a deployment', () => {
  it('adds a service, stopped until its first deploy, with its whole configuration', async () => {
    const service = await addService(
      {
        name: 'web',
        command: 'httpd -f -p 8080',
        port: 8080,
        env: { GREETING: 'hello' },
        secrets: [{ name: 'API_TOKEN', value: secretValue('api') }],
        replicas: 2,
        healthCheck: { path: '/health' },
        accessControl: 'private',
        allowlist: [member.user.id],
        customDomain: 'shop.example.com',
        preDeploy: { command: 'echo migrate' },
        cronJobs: [{ name: 'nightly', schedule: '0 3 * * *', command: 'echo tick' }],
      },
      owner.token,
    );
    expect(service).toEqual({
      id: expect.any(String),
      orgId: org.id,
      deploymentId: expect.any(String),
      name: 'web',
      url: expect.stringMatching(/^http:\/\/svc-[0-9a-f-]{36}\.svc\.localhost:8080$/),
      source: IMAGE,
      command: 'httpd -f -p 8080',
      port: 8080,
      env: { GREETING: 'hello' },
      secrets: [expect.objectContaining({ name: 'API_TOKEN' })],
      replicas: 2,
      healthCheck: { path: '/health', intervalSeconds: 5, timeoutSeconds: 2, graceSeconds: 60 },
      accessControl: 'private',
      allowlist: [member.user.id],
      customDomain: {
        name: 'shop.example.com',
        verified: false,
        verifiedAt: null,
        challenge: {
          type: 'TXT',
          name: '_sparrow-challenge.shop.example.com',
          value: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        },
      },
      preDeploy: { command: 'echo migrate', timeoutSeconds: 600 },
      cronJobs: [{ name: 'nightly', schedule: '0 3 * * *', command: 'echo tick' }],
      state: 'stopped',
      stateReason: null,
      activeRunId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await t.api.get(`${servicesUrl}/${service.id}`, { token: member.token });
    expect(read.body).toEqual(service);
    const deployment = await t.api.get(
      servicesUrl.replace(/\/services$/, '') as `/orgs/${string}/deployments/${string}`,
      {
        token: member.token,
      },
    );
    expect(deployment.body).toMatchObject({ state: 'stopped', serviceCount: 1 });
  });

  it('takes defaults for what a create leaves out', async () => {
    const service = await addService({ name: 'worker' });
    expect(service).toMatchObject({
      command: null,
      port: null,
      env: {},
      secrets: [],
      replicas: 1,
      healthCheck: null,
      accessControl: 'public',
      allowlist: [],
      customDomain: null,
      preDeploy: null,
      cronJobs: [],
    });
  });

  it('follows the PATCH rules and keeps a domain’s challenge until the domain changes', async () => {
    const service = await addService({
      name: 'api',
      port: 3000,
      env: { A: '1' },
      cronJobs: [{ name: 'a', schedule: '*/5 * * * *', command: 'true' }],
      customDomain: 'api.example.com',
    });
    const url = `${servicesUrl}/${service.id}` as const;
    const renamed = await t.api.patch(url, { name: 'api-v2' }, { token: owner.token });
    expect(renamed.body).toMatchObject({ name: 'api-v2', port: 3000, env: { A: '1' } });
    expect(renamed.body.customDomain).toEqual(service.customDomain);
    const cleared = await t.api.patch(
      url,
      { env: {}, cronJobs: [], command: null },
      { token: owner.token },
    );
    expect(cleared.body).toMatchObject({ env: {}, cronJobs: [], command: null, port: 3000 });
    const moved = await t.api.patch(
      url,
      { customDomain: 'api2.example.com' },
      { token: owner.token },
    );
    expect(moved.body.customDomain?.name).toBe('api2.example.com');
    expect(moved.body.customDomain?.challenge.value).not.toBe(
      service.customDomain?.challenge.value,
    );
    const removed = await t.api.patch(url, { customDomain: null }, { token: owner.token });
    expect(removed.body.customDomain).toBeNull();
    const source = await t.api.patch(
      url,
      { source: { type: 'image', image: 'nginx:1.27' } },
      { token: owner.token },
    );
    expect(source.body.source).toEqual({ type: 'image', image: 'nginx:1.27' });
  });

  it('clears command and custom domain with empty or whitespace text (null is stored)', async () => {
    for (const blank of ['', '   ', '\t\n']) {
      const service = await addService({
        name: `blank-${blank.length}`,
        command: 'sleep 1000',
        port: 8080,
        customDomain: `blank${blank.length}.example.com`,
      });
      const url = `${servicesUrl}/${service.id}` as const;
      const cleared = await t.api.patch(
        url,
        { command: blank, customDomain: blank },
        { token: owner.token },
      );
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      expect(cleared.body).toMatchObject({ command: null, customDomain: null, port: 8080 });
      const read = await t.api.get(url, { token: owner.token });
      expect(read.body).toMatchObject({ command: null, customDomain: null });
    }
    const service = await addService({ name: 'trimmed', command: 'true' });
    const trimmed = await t.api.patch(
      `${servicesUrl}/${service.id}`,
      { command: '  echo hi  ' },
      { token: owner.token },
    );
    expect(trimmed.body.command).toBe('echo hi');
  });

  it('refuses bad settings with stable codes and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'a', healthCheck: { path: '/' } }, 400, 'port_required'],
      [
        { name: 'b', port: 80, cronJobs: [{ name: 'x', schedule: 'every day', command: 'true' }] },
        400,
        'invalid_schedule',
      ],
      [
        {
          name: 'c',
          cronJobs: [
            { name: 'x', schedule: '@daily', command: 'true' },
            { name: 'x', schedule: '@hourly', command: 'true' },
          ],
        },
        400,
        'duplicate_cron_job',
      ],
      [{ name: 'd', allowlist: [outsider.user.id] }, 400, 'not_an_org_member'],
      [{ name: 'e', replicas: 11 }, 400, 'validation_failed'],
      [{ name: 'f', port: 70000 }, 400, 'validation_failed'],
      [{ name: 'g', source: { type: 'image', image: 'UPPER' } }, 400, 'validation_failed'],
      [{ name: 'h', source: { type: 'git', url: 'x' } }, 400, 'validation_failed'],
      [{ name: 'i', customDomain: 'not a domain', port: 80 }, 400, 'validation_failed'],
      [{ name: 'web' }, 409, 'service_name_taken'],
      [{ name: 'WEB' }, 409, 'service_name_taken'],
      [{ name: 'j', port: 80, customDomain: 'shop.example.com' }, 409, 'domain_taken'],
    ];
    for (const [body, status, code] of cases) {
      const response = await t.api.post(
        servicesUrl,
        { source: IMAGE, ...body },
        { token: owner.token },
      );
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.code, JSON.stringify(body)).toBe(code);
    }
    const names = (await t.api.get(servicesUrl, { token: owner.token })).body.map(
      (one) => one.name,
    );
    for (const name of 'abcdefghij') expect(names).not.toContain(name);
  });

  it('builds from a project of the same organization only', async () => {
    const project = await t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'Site' },
      { token: owner.token },
    );
    const foreign = await t.api.post(
      `/orgs/${otherOrg.id}/projects`,
      { name: 'Theirs' },
      { token: outsider.token },
    );
    const built = await addService({
      name: 'site',
      source: { type: 'project', projectId: project.body.id },
    });
    expect(built.source).toEqual({ type: 'project', projectId: project.body.id, branch: null });
    const refused = await t.api.post(
      servicesUrl,
      { name: 'theirs', source: { type: 'project', projectId: foreign.body.id, branch: 'main' } },
      { token: owner.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_source');
  });

  it('lists by name in the deployment and across the organization', async () => {
    const inDeployment = await t.api.get(`${servicesUrl}?q=WE`, { token: member.token });
    expect(inDeployment.body.map((one) => one.name)).toEqual(['web']);
    const inOrg = await t.api.get(`/orgs/${org.id}/services?q=work`, { token: member.token });
    expect(inOrg.body.map((one) => one.name)).toEqual(['worker']);
    const other = await t.api.get(`/orgs/${otherOrg.id}/services`, { token: outsider.token });
    expect(other.body).toEqual([]);
  });

  it('checks scopes and organizations on every service route', async () => {
    const reader = await createKey(t, org, owner, ['deployments:read']);
    const service = await addService({ name: 'scoped' });
    const url = `${servicesUrl}/${service.id}` as const;
    expect((await t.api.get(url, { token: reader.token })).status).toBe(200);
    for (const response of [
      await t.api.post(servicesUrl, { name: 'nope', source: IMAGE }, { token: reader.token }),
      await t.api.patch(url, { replicas: 2 }, { token: reader.token }),
      await t.api.delete(url, { token: reader.token }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('missing_scope');
    }
    const foreign = await createKey(t, otherOrg, outsider, ['*']);
    for (const response of [
      await t.api.get(url, { token: outsider.token }),
      await t.api.patch(url, { replicas: 2 }, { token: outsider.token }),
      await t.api.delete(url, { token: foreign.token }),
    ]) {
      expect([403, 404]).toContain(response.status);
    }
    const stillThere = await t.api.get(url, { token: owner.token });
    expect(stillThere.body.replicas).toBe(1);
  });

  it('writes service secrets only for owners and admins, and never shows them', async () => {
    const service = await addService({ name: 'secretive' });
    const url = `${servicesUrl}/${service.id}` as const;
    const byMember = await t.api.patch(
      url,
      { secrets: [{ name: 'KEY', value: secretValue('member') }] },
      { token: member.token },
    );
    expect(byMember.status).toBe(403);
    const byOwner = await t.api.patch(
      url,
      { secrets: [{ name: 'KEY', value: secretValue('owner') }] },
      { token: owner.token },
    );
    expect(byOwner.body.secrets.map((secret) => secret.name)).toEqual(['KEY']);
  });

  it('removes a stopped service', async () => {
    const service = await addService({ name: 'short-lived' });
    const url = `${servicesUrl}/${service.id}` as const;
    expect((await t.api.delete(url, { token: member.token })).status).toBe(204);
    expect((await t.api.get(url, { token: member.token })).status).toBe(404);
  });
});

expectNoSecretLeaks();
