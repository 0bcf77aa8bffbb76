import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { twoTenants } from '../../../test/fixtures/org.js';
import { startDnsServer, type TestDnsServer } from '../../../test/helpers/dns-server.js';
import type { TestUser } from '../../../test/helpers/factories.js';
import { createKey, createPlatformTestApp, type TestOrg } from '../../../test/helpers/platform.js';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

const t = useApp(() =>
  createPlatformTestApp({ DNS_SERVERS: dns.address, SERVICE_DOMAIN: 'apps.test' }),
);
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let org: TestOrg;
let servicesUrl: string;

beforeAll(async () => {
  ({ owner, member, outsider, org } = await twoTenants(t, 'Domains Org', 'Elsewhere'));
  const deployment = await t.app.inject({
    method: 'POST',
    url: `/api/orgs/${org.id}/deployments`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { name: 'Web' },
  });
  servicesUrl = `/api/orgs/${org.id}/deployments/${deployment.json().id}/services`;
});

let serial = 0;
async function addService(customDomain: string | null) {
  serial += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: servicesUrl,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      name: `web-${serial}`,
      source: { type: 'image', image: 'busybox:1.36' },
      port: 8080,
      customDomain,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

function verify(serviceId: string, token: string | null = owner.token) {
  return t.app.inject({
    method: 'POST',
    url: `${servicesUrl}/${serviceId}/verify-domain`,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

function domainCheck(domain: string) {
  return t.app.inject({
    method: 'GET',
    url: `/api/routing/domain-check?domain=${encodeURIComponent(domain)}`,
  });
}

describe('custom domains', () => {
  it('show the TXT challenge, and verify only once it is published with its value', async () => {
    const service = await addService('shop.example.com');
    expect(service.customDomain).toEqual({
      name: 'shop.example.com',
      verified: false,
      verifiedAt: null,
      challenge: {
        type: 'TXT',
        name: '_sparrow-challenge.shop.example.com',
        value: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      },
    });
    const missing = await verify(service.id);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.code).toBe('domain_challenge_missing');
    expect((await domainCheck('shop.example.com')).statusCode).toBe(404);

    dns.txt.set('_sparrow-challenge.shop.example.com', [['something-else'], ['v=spf1 -all']]);
    const wrong = await verify(service.id);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.code).toBe('domain_challenge_mismatch');

    // Published among other records, and split in two strings: one value.
    const value: string = service.customDomain.challenge.value;
    dns.txt.set('_sparrow-challenge.shop.example.com', [
      ['something-else'],
      [value.slice(0, 10), value.slice(10)],
    ]);
    const verified = await verify(service.id);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().customDomain).toMatchObject({
      name: 'shop.example.com',
      verified: true,
      verifiedAt: expect.any(String),
    });
    const check = await domainCheck('shop.example.com');
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({
      domain: 'shop.example.com',
      kind: 'custom',
      serviceId: service.id,
    });

    // Again: nothing changes, even with the record gone.
    dns.txt.delete('_sparrow-challenge.shop.example.com');
    const again = await verify(service.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().customDomain.verifiedAt).toBe(verified.json().customDomain.verifiedAt);
  });

  it('start over when the domain changes, and keep verification when it does not', async () => {
    const service = await addService('blog.example.com');
    dns.txt.set('_sparrow-challenge.blog.example.com', [[service.customDomain.challenge.value]]);
    expect((await verify(service.id)).statusCode).toBe(200);
    const patch = (customDomain: string | null) =>
      t.app.inject({
        method: 'PATCH',
        url: `${servicesUrl}/${service.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { customDomain },
      });
    const same = await patch('blog.example.com');
    expect(same.json().customDomain.verified).toBe(true);
    const moved = await patch('news.example.com');
    expect(moved.json().customDomain).toMatchObject({ name: 'news.example.com', verified: false });
    expect(moved.json().customDomain.challenge.value).not.toBe(
      service.customDomain.challenge.value,
    );
    expect((await domainCheck('blog.example.com')).statusCode).toBe(404);
    expect((await domainCheck('news.example.com')).statusCode).toBe(404);
    const removed = await patch(null);
    expect(removed.json().customDomain).toBeNull();
    const none = await verify(service.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('no_custom_domain');
  });

  it('answer 502 dns_unavailable when the DNS servers fail', async () => {
    const service = await addService('down.example.com');
    dns.failing = true;
    try {
      const response = await verify(service.id);
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe('dns_unavailable');
    } finally {
      dns.failing = false;
    }
  });

  it('refuse callers without a credential, from elsewhere, or without deployments:write', async () => {
    const service = await addService('guarded.example.com');
    expect((await verify(service.id, null)).statusCode).toBe(401);
    const stranger = await verify(service.id, outsider.token);
    expect(stranger.statusCode).toBe(404);
    const reader = await createKey(t, org, owner, ['deployments:read'], 'org');
    const byReader = await verify(service.id, reader.token);
    expect(byReader.statusCode).toBe(403);
    expect(byReader.json().error.code).toBe('missing_scope');
    const writer = await createKey(t, org, owner, ['deployments:write'], 'org');
    expect((await verify(service.id, writer.token)).json().error.code).toBe(
      'domain_challenge_missing',
    );
    // Any member may verify (deployments:write is every role's).
    expect((await verify(service.id, member.token)).json().error.code).toBe(
      'domain_challenge_missing',
    );
    const badId = await t.app.inject({
      method: 'POST',
      url: `${servicesUrl}/not-a-uuid/verify-domain`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(badId.statusCode).toBe(400);
  });
});

describe('the on-demand TLS ask', () => {
  it('answers 200 for the API host and services’ hosts, 404 for anything else', async () => {
    const service = await addService(null);
    const api = await domainCheck(new URL(t.ctx.config.publicUrl).hostname);
    expect(api.json()).toMatchObject({ kind: 'api' });
    const host = await domainCheck(`svc-${service.id}.apps.test`);
    expect(host.statusCode).toBe(200);
    expect(host.json()).toEqual({
      domain: `svc-${service.id}.apps.test`,
      kind: 'service',
      serviceId: service.id,
    });
    expect((await domainCheck(`SVC-${service.id}.apps.test.`)).statusCode).toBe(200);
    for (const unknown of [
      `svc-${org.id}.apps.test`,
      `svc-${service.id}.elsewhere.test`,
      'example.com',
      `x.svc-${service.id}.apps.test`,
    ]) {
      const response = await domainCheck(unknown);
      expect(response.statusCode, unknown).toBe(404);
      expect(response.json().error.code).toBe('domain_unknown');
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/routing/domain-check' })).statusCode,
    ).toBe(400);
  });

  it('lets a verified custom domain be a sign-in return URL', async () => {
    const service = await addService('private.example.com');
    const state = 'S'.repeat(32);
    const access = (url: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/services/${service.id}/access?return=${encodeURIComponent(url)}&state=${state}`,
        headers: { cookie: `session=${owner.token}` },
      });
    expect((await access('https://private.example.com/')).statusCode).toBe(400);
    dns.txt.set('_sparrow-challenge.private.example.com', [[service.customDomain.challenge.value]]);
    expect((await verify(service.id)).statusCode).toBe(200);
    const response = await access('https://private.example.com/inside');
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toMatch(
      /^https:\/\/private\.example\.com\/__sparrow\/callback\?code=spc_/,
    );
  });
});
