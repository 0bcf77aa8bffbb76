import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/app.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import {
  addMember,
  createKey,
  createOrg,
  createPlatformTestApp,
  type TestOrg,
} from '../../../test/helpers/platform.js';
import { anotherTestApp } from '../../../test/helpers/processes.js';
import { checkServiceAccess } from './access.js';
import { grantCacheOf } from './grant-cache.js';
import { accessVersion } from './versions.js';

/** Two server processes on one database: `a` takes the writes, `b` only answers the proxy. */
let a: TestApp;
let b: TestApp;
let owner: TestUser;
let org: TestOrg;
let servicesUrl: string;

beforeAll(async () => {
  a = await createPlatformTestApp();
  b = await anotherTestApp(a);
  owner = await createUser(a);
  org = await createOrg(a, owner, 'Revocations');
  const deployment = await a.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Site' },
    { token: owner.token },
  );
  servicesUrl = `/api/orgs/${org.id}/deployments/${deployment.body.id}/services`;
});
afterAll(async () => {
  await b.close();
  await a.close();
});

interface TestService {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
}

let serial = 0;
async function addService(body: Record<string, unknown>): Promise<TestService> {
  serial += 1;
  const response = await a.app.inject({
    method: 'POST',
    url: servicesUrl,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { name: `svc-${serial}`, source: { type: 'image', image: 'busybox:1.36' }, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function patchService(service: TestService, body: Record<string, unknown>) {
  const response = await a.app.inject({
    method: 'PATCH',
    url: `${servicesUrl}/${service.id}`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The decisions of both servers for one request, as `[a, b]` kinds and codes. */
async function onBoth(service: TestService, headers: IncomingHttpHeaders) {
  const decide = async (app: TestApp) => {
    const decision = await checkServiceAccess(
      app.ctx,
      { ...service, host: `svc-${service.id}.svc.localhost` },
      { method: 'GET', url: '/', headers },
    );
    return decision.kind === 'deny' ? `deny ${decision.code}` : decision.kind;
  };
  return [await decide(a), await decide(b)];
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('revocation across two servers', () => {
  it('serves a repeated grant from memory, without looking the key up again', async () => {
    const service = await addService({ accessControl: 'private' });
    const key = await createKey(a, org, owner, ['deployments:access'], 'org');
    const headers = { 'x-service-token': key.token };
    expect(await onBoth(service, headers)).toEqual(['allow', 'allow']);
    // The stored hash no longer matches the token (no application path does this):
    // only a cached grant can still let it in, and it does, on both.
    await a.db
      .updateTable('org_api_keys')
      .set({ token_hash: 'f'.repeat(64) })
      .where('id', '=', key.id)
      .execute();
    expect(await onBoth(service, headers)).toEqual(['allow', 'allow']);
  });

  it('refuses a revoked key on the next request on both servers, then drops the grants', async () => {
    const service = await addService({ accessControl: 'private' });
    const key = await createKey(a, org, owner, ['deployments:access'], 'org');
    const headers = { 'x-service-token': key.token };
    expect(await onBoth(service, headers)).toEqual(['allow', 'allow']);
    expect(grantCacheOf(b.ctx).grantCount).toBeGreaterThan(0);
    const revoked = await a.app.inject({
      method: 'DELETE',
      url: `/api/orgs/${org.id}/api-keys/${key.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(revoked.statusCode).toBe(204);
    // No wait for the notification: the version read refuses at once.
    expect(await onBoth(service, headers)).toEqual([
      'deny invalid_service_token',
      'deny invalid_service_token',
    ]);
    // And the notification empties the other server's memory of that organization.
    await until(() => grantCacheOf(b.ctx).grantCount === 0, "b's grants to be dropped");
  });

  it('refuses a personal key taken off the allowlist, or whose owner left, on both', async () => {
    const person = await addMember(a, org, owner, 'member');
    const service = await addService({ accessControl: 'private', allowlist: [person.user.id] });
    const key = await createKey(a, org, person, ['deployments:access']);
    const headers = { authorization: `Bearer ${key.token}` };
    expect(await onBoth(service, headers)).toEqual(['allow', 'allow']);
    await patchService(service, { allowlist: [] });
    expect(await onBoth(service, headers)).toEqual([
      'deny not_on_allowlist',
      'deny not_on_allowlist',
    ]);
    await patchService(service, { allowlist: [person.user.id] });
    expect(await onBoth(service, headers)).toEqual(['allow', 'allow']);
    const left = await a.app.inject({
      method: 'DELETE',
      url: `/api/orgs/${org.id}/members/${person.user.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(left.statusCode).toBe(204);
    expect(await onBoth(service, headers)).toEqual([
      'deny invalid_service_token',
      'deny invalid_service_token',
    ]);
  });

  it('refuses a service switched to private on both, though the routing still says public', async () => {
    const service = await addService({});
    expect(await onBoth(service, {})).toEqual(['allow', 'allow']);
    await patchService(service, { accessControl: 'private' });
    expect(await onBoth(service, {})).toEqual([
      'deny service_login_required',
      'deny service_login_required',
    ]);
  });

  it('refuses a deleted service on both', async () => {
    const service = await addService({});
    expect(await onBoth(service, {})).toEqual(['allow', 'allow']);
    const removed = await a.app.inject({
      method: 'DELETE',
      url: `${servicesUrl}/${service.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(removed.statusCode).toBe(204);
    expect(await onBoth(service, {})).toEqual(['deny not_found', 'deny not_found']);
  });
});

describe('the access version', () => {
  it('moves with every change that can take access away, and with nothing else', async () => {
    const person = await addMember(a, org, owner, 'member');
    const service = await addService({ accessControl: 'private' });
    const key = await createKey(a, org, person, ['deployments:access']);
    const version = () => accessVersion(a.db, org.id);
    const moves = async (change: () => Promise<unknown>) => {
      const before = await version();
      await change();
      return (await version()) > before;
    };
    const inject = (method: 'PATCH' | 'DELETE', url: string, payload?: object) =>
      a.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${owner.token}` },
        ...(payload === undefined ? {} : { payload }),
      });
    // Not: using a key, a service's other settings or state, a new key.
    expect(
      await moves(() =>
        a.db
          .updateTable('org_api_keys')
          .set({ last_used_at: new Date() })
          .where('id', '=', key.id)
          .execute(),
      ),
    ).toBe(false);
    expect(
      await moves(() => inject('PATCH', `${servicesUrl}/${service.id}`, { replicas: 2 })),
    ).toBe(false);
    expect(
      await moves(() =>
        a.db
          .updateTable('services')
          .set({ state: 'running' })
          .where('id', '=', service.id)
          .execute(),
      ),
    ).toBe(false);
    expect(await moves(() => createKey(a, org, owner, ['deployments:access'], 'org'))).toBe(false);
    // A change rolled back moves nothing.
    expect(
      await moves(() =>
        a.db
          .transaction()
          .execute(async (trx) => {
            await trx
              .updateTable('services')
              .set({ allowlist: '[]', access_control: 'public' })
              .execute();
            throw new Error('rolled back');
          })
          .catch(() => {}),
      ),
    ).toBe(false);
    // Yes: a role changed, access settings changed, a session signed out, a key revoked, a member gone.
    expect(
      await moves(() =>
        inject('PATCH', `/api/orgs/${org.id}/members/${person.user.id}`, { role: 'admin' }),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        inject('PATCH', `${servicesUrl}/${service.id}`, { accessControl: 'public' }),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        inject('PATCH', `${servicesUrl}/${service.id}`, { allowlist: [person.user.id] }),
      ),
    ).toBe(true);
    const session = await createUser(a);
    await a.app.inject({
      method: 'POST',
      url: `/api/orgs/${org.id}/members`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { email: session.user.email, role: 'member' },
    });
    expect(
      await moves(() =>
        a.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { authorization: `Bearer ${session.token}` },
        }),
      ),
    ).toBe(true);
    expect(await moves(() => inject('DELETE', `/api/orgs/${org.id}/api-keys/${key.id}`))).toBe(
      true,
    );
    expect(
      await moves(() => inject('DELETE', `/api/orgs/${org.id}/members/${person.user.id}`)),
    ).toBe(true);
  });
});
