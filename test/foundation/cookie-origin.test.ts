import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import {
  createCollection,
  createUser,
  createWorkspace,
  TEST_PASSWORD,
  type TestUser,
  type TestWorkspace,
} from '../helpers/factories.js';
import { createOrg, createPlatformTestApp, type TestOrg } from '../helpers/platform.js';

const PUBLIC_URL = 'https://sparrow.example:8443';
/** A service of the same site: SameSite=Lax does not stop its pages' requests carrying the cookie. */
const SERVICE_ORIGIN = 'https://svc-0197a2b4-0000-7000-8000-000000000000.sparrow.example';

/**
 * A request authenticated by the session cookie that changes state must
 * come from the service's own origin: by `Origin`, else `Sec-Fetch-Site`.
 * Reads, bearer tokens and requests that carry neither header pass.
 */
describe('cookie-authenticated requests from other origins', () => {
  const t = useApp(() => createPlatformTestApp({ PUBLIC_URL }));
  let owner: TestUser;
  let workspace: TestWorkspace;
  let org: TestOrg;
  let prefix = 0;

  beforeAll(async () => {
    owner = await createUser(t);
    workspace = await createWorkspace(t, owner);
    org = await createOrg(t, owner);
  });

  /** Each way a request may say where it comes from, and whether it is let through. */
  const SOURCES: Array<{ name: string; headers: Record<string, string>; allowed: boolean }> = [
    { name: 'the own origin', headers: { origin: PUBLIC_URL }, allowed: true },
    { name: 'a service origin', headers: { origin: SERVICE_ORIGIN }, allowed: false },
    { name: 'another site', headers: { origin: 'https://evil.example' }, allowed: false },
    { name: 'an opaque origin', headers: { origin: 'null' }, allowed: false },
    {
      name: 'the own origin on another port',
      headers: { origin: 'https://sparrow.example' },
      allowed: false,
    },
    {
      name: 'no Origin, Sec-Fetch-Site same-origin',
      headers: { 'sec-fetch-site': 'same-origin' },
      allowed: true,
    },
    {
      name: 'no Origin, Sec-Fetch-Site same-site',
      headers: { 'sec-fetch-site': 'same-site' },
      allowed: false,
    },
    {
      name: 'no Origin, Sec-Fetch-Site cross-site',
      headers: { 'sec-fetch-site': 'cross-site' },
      allowed: false,
    },
    {
      name: 'a foreign Origin despite Sec-Fetch-Site same-origin',
      headers: { origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-origin' },
      allowed: false,
    },
    { name: 'neither header (curl)', headers: {}, allowed: true },
  ];

  for (const source of SOURCES) {
    it(`a content route, by cookie, from ${source.name}: ${source.allowed ? 'accepted' : '403'}`, async () => {
      prefix += 1;
      const response = await t.http.post(
        `/workspaces/${workspace.id}/collections`,
        { name: 'List', keyPrefix: `OR${prefix}` },
        { cookies: { session: owner.token }, headers: source.headers },
      );
      if (source.allowed) expect(response.status, response.text).toBe(201);
      else {
        expect(response.status, response.text).toBe(403);
        expect(response.body.error.code).toBe('origin_not_allowed');
      }
    });

    it(`a platform route, by cookie, from ${source.name}: ${source.allowed ? 'accepted' : '403'}`, async () => {
      const response = await t.api.post(
        `/orgs/${org.id}/projects`,
        { name: `p-${randomBytes(3).toString('hex')}` },
        { cookies: { session: owner.token }, headers: source.headers },
      );
      if (source.allowed) expect(response.status, response.text).toBe(201);
      else {
        expect(response.status, response.text).toBe(403);
        expect(response.body.error.code).toBe('origin_not_allowed');
      }
    });
  }

  it('refuses every state-changing method, on both roots, and nothing is written', async () => {
    const list = await createCollection(t, workspace);
    const foreign = { cookies: { session: owner.token }, headers: { origin: SERVICE_ORIGIN } };
    const patched = await t.api.patch(
      `/workspaces/${workspace.id}/collections/${list.id}`,
      { name: 'Renamed' },
      foreign,
    );
    expect(patched.status).toBe(403);
    const removed = await t.http.delete(
      `/workspaces/${workspace.id}/collections/${list.id}`,
      foreign,
    );
    expect(removed.status).toBe(403);
    const demoted = await t.api.patch(
      `/orgs/${org.id}/members/${owner.user.id}`,
      { role: 'member' },
      foreign,
    );
    expect(demoted.status).toBe(403);
    expect(demoted.body.error.code).toBe('origin_not_allowed');
    const after = await t.http.get(`/workspaces/${workspace.id}/collections/${list.id}`, {
      token: owner.token,
    });
    expect(after.status).toBe(200);
    expect(after.body.name).not.toBe('Renamed');
    const members = await t.api.get(`/orgs/${org.id}/members`, { token: owner.token });
    expect(members.text).toContain('"role":"owner"');
  });

  it('refuses a foreign form post by its origin (403), whatever its content type', async () => {
    const before = await t.http.get('/workspaces', { token: owner.token });
    for (const [url, type, payload] of [
      ['/workspaces', 'application/x-www-form-urlencoded', 'name=Forged&slug=forged'],
      ['/workspaces', 'text/plain', 'name=Forged'],
      ['/workspaces', 'multipart/form-data; boundary=x', '--x--'],
      [`/workspaces/${workspace.id}`, 'application/x-www-form-urlencoded', 'name=Renamed'],
      ['/auth/logout', 'application/x-www-form-urlencoded', ''],
    ] as const) {
      const response = await t.http.raw({
        method: url === `/workspaces/${workspace.id}` ? 'PATCH' : 'POST',
        url,
        headers: { 'content-type': type, origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-site' },
        cookies: { session: owner.token },
        payload,
      });
      expect(response.status, `${url} ${type}: ${response.text}`).toBe(403);
      expect(response.body.error.code).toBe('origin_not_allowed');
    }
    const after = await t.http.get('/workspaces', { token: owner.token });
    expect(after.body).toEqual(before.body);
  });

  it('lets reads by cookie and writes by bearer token through from any origin', async () => {
    const read = await t.http.get(`/workspaces/${workspace.id}`, {
      cookies: { session: owner.token },
      headers: { origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-site' },
    });
    expect(read.status).toBe(200);
    const write = await t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'by-token' },
      { token: owner.token, headers: { origin: SERVICE_ORIGIN, 'sec-fetch-site': 'same-site' } },
    );
    expect(write.status).toBe(201);
  });

  it('refuses a logout by cookie from another origin, and the session stays valid', async () => {
    const email = `logout-${randomBytes(4).toString('hex')}@example.test`;
    const person = await createUser(t, { email });
    const foreign: Array<Record<string, string>> = [
      { origin: SERVICE_ORIGIN },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of foreign) {
      const logout = await t.http.post('/auth/logout', undefined, {
        cookies: { session: person.token },
        headers,
      });
      expect(logout.status, logout.text).toBe(403);
      expect(logout.body.error.code).toBe('origin_not_allowed');
      expect(logout.headers['set-cookie']).toBeUndefined();
    }
    const me = await t.http.get('/auth/me', { cookies: { session: person.token } });
    expect(me.status, me.text).toBe(200);
    const byBearer = await t.http.post('/auth/logout', undefined, {
      token: person.token,
      headers: { origin: SERVICE_ORIGIN },
    });
    expect(byBearer.status, byBearer.text).toBe(204);
  });

  it('sign-in by cookie, then OAuth consent and logout from the own origin, still work', async () => {
    const ownPage = { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' };
    const email = `origin-${randomBytes(4).toString('hex')}@example.test`;
    const person = await createUser(t, { email });
    const login = await t.http.post(
      '/auth/login',
      { email, password: TEST_PASSWORD },
      { headers: ownPage },
    );
    expect(login.status, login.text).toBe(200);
    const setCookie = String(login.headers['set-cookie']);
    const session = /session=([^;]+)/.exec(setCookie)?.[1] ?? '';
    expect(session).toMatch(/^ses_/);
    const own = await createWorkspace(t, person);
    const app = await t.http.post(
      '/apps',
      { name: 'Consent', redirectUris: ['https://app.example.test/cb'], scopes: ['items:read'] },
      { cookies: { session }, headers: ownPage },
    );
    expect(app.status, app.text).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const consent = {
      clientId: app.body.clientId,
      redirectUri: 'https://app.example.test/cb',
      workspaceId: own.id,
      scopes: ['items:read'],
      state: 'st',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
    };
    const foreign = await t.http.post('/oauth/authorize', consent, {
      cookies: { session },
      headers: { origin: SERVICE_ORIGIN },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('origin_not_allowed');
    const granted = await t.http.post('/oauth/authorize', consent, {
      cookies: { session },
      headers: ownPage,
    });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.redirectTo).toMatch(/^https:\/\/app\.example\.test\/cb\?code=/);
    const logout = await t.http.post('/auth/logout', undefined, {
      cookies: { session },
      headers: ownPage,
    });
    expect(logout.status).toBe(204);
  });
});
