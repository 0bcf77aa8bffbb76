import type { IncomingHttpHeaders } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { orgWithMembers } from '../../../test/fixtures/org.js';
import type { TestApp } from '../../../test/helpers/app.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import {
  addMember,
  createKey,
  createOrg,
  createPlatformTestApp,
  type TestOrg,
} from '../../../test/helpers/platform.js';
import { serviceUrlOn } from '../routing/service-hosts.js';
import { ACCESS_COOKIE, type AccessDecision, checkServiceAccess, STATE_COOKIE } from './access.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let allowed: TestUser;
let other: TestUser;
let outsider: TestUser;
let org: TestOrg;
let elsewhere: TestOrg;
let servicesUrl: string;

interface TestService {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
}

beforeAll(async () => {
  ({ owner, org, outsider } = await orgWithMembers(t, ['outsider'], { name: 'Private Org' }));
  elsewhere = await createOrg(t, outsider, 'Elsewhere');
  allowed = await addMember(t, org, owner, 'member');
  other = await addMember(t, org, owner, 'member');
  const deployment = await t.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Site' },
    { token: owner.token },
  );
  servicesUrl = `/orgs/${org.id}/deployments/${deployment.body.id}/services`;
});

let serial = 0;
async function addService(body: Record<string, unknown>): Promise<TestService> {
  serial += 1;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api${servicesUrl}`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      name: `svc-${serial}`,
      source: { type: 'image', image: 'busybox:1.36' },
      port: 8080,
      ...body,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function patchService(service: TestService, body: Record<string, unknown>): Promise<void> {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api${servicesUrl}/${service.id}`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const hostOf = (service: TestService) => `svc-${service.id}.svc.localhost`;
/** Where a browser reaches a service (the port is PUBLIC_URL's by default). */
const originOf = (service: TestService) => serviceUrlOn(t.ctx.config, hostOf(service), '');

/** What the proxy would ask, with the routing it holds (which may be older than the service). */
function check(
  service: TestService,
  headers: IncomingHttpHeaders,
  options: { url?: string; method?: string; app?: TestApp; routed?: Partial<TestService> } = {},
): Promise<AccessDecision> {
  const app = options.app ?? t;
  return checkServiceAccess(
    app.ctx,
    { ...service, ...options.routed, host: hostOf(service) },
    { method: options.method ?? 'GET', url: options.url ?? '/', headers },
  );
}

const allow = (removeHeaders: string[]) => ({ kind: 'allow', removeHeaders });
const denied = (status: number, code: string) =>
  expect.objectContaining({ kind: 'deny', status, code });

describe('scripts on a private service (Authentication 8)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await addService({ accessControl: 'private', allowlist: [allowed.user.id] });
  });

  it('lets in an org key with deployments:access, from X-Service-Token or a bearer, and strips it', async () => {
    const key = await createKey(t, org, owner, ['deployments:access'], 'org');
    expect(await check(service, { 'x-service-token': key.token })).toEqual(
      allow(['x-service-token']),
    );
    expect(await check(service, { authorization: `Bearer ${key.token}` })).toEqual(
      allow(['authorization']),
    );
    // Both sent: the header is the credential, and both are taken out.
    expect(
      await check(service, {
        'x-service-token': key.token,
        authorization: `Bearer ${key.token}`,
      }),
    ).toEqual(allow(['x-service-token', 'authorization']));
  });

  it('lets in a key with `*`', async () => {
    const key = await createKey(t, org, owner, ['*'], 'org');
    expect(await check(service, { 'x-service-token': key.token })).toEqual(
      allow(['x-service-token']),
    );
  });

  it('refuses deployments:read (and other scopes) without deployments:access: 403', async () => {
    const key = await createKey(t, org, owner, ['deployments:read', 'deployments:write'], 'org');
    expect(await check(service, { 'x-service-token': key.token })).toEqual(
      denied(403, 'missing_scope'),
    );
  });

  it('refuses a key of another organization, even with `*`: 403', async () => {
    const key = await createKey(t, elsewhere, outsider, ['*'], 'org');
    expect(await check(service, { 'x-service-token': key.token })).toEqual(
      denied(403, 'service_org_mismatch'),
    );
  });

  it('lets in a personal key only when its owner is on the allowlist', async () => {
    const onList = await createKey(t, org, allowed, ['deployments:access']);
    const offList = await createKey(t, org, other, ['deployments:access']);
    const ownerKey = await createKey(t, org, owner, ['*']);
    expect(await check(service, { 'x-service-token': onList.token })).toEqual(
      allow(['x-service-token']),
    );
    expect(await check(service, { 'x-service-token': offList.token })).toEqual(
      denied(403, 'not_on_allowlist'),
    );
    // Even the owner's personal key: the allowlist governs personal keys.
    expect(await check(service, { 'x-service-token': ownerKey.token })).toEqual(
      denied(403, 'not_on_allowlist'),
    );
  });

  it('answers 401 for an unknown, revoked or malformed key', async () => {
    const unknown = `spk_${'A'.repeat(43)}`;
    expect(await check(service, { 'x-service-token': unknown })).toEqual(
      denied(401, 'invalid_service_token'),
    );
    expect(await check(service, { authorization: `Bearer ${unknown}` })).toEqual(
      denied(401, 'invalid_service_token'),
    );
    expect(await check(service, { 'x-service-token': 'not a key' })).toEqual(
      denied(401, 'invalid_service_token'),
    );
  });

  it('forwards a foreign bearer unchanged and treats the request as one without a key', async () => {
    const foreign = { authorization: 'Bearer the-service-own-token' };
    expect(await check(service, foreign)).toEqual(denied(401, 'service_login_required'));
    const key = await createKey(t, org, owner, ['deployments:access'], 'org');
    // With a platform key in X-Service-Token, the container still gets its own bearer.
    expect(await check(service, { ...foreign, 'x-service-token': key.token })).toEqual(
      allow(['x-service-token']),
    );
  });

  it('takes no session token from a script, and never forwards one', async () => {
    const decision = await check(service, { authorization: `Bearer ${owner.token}` });
    expect(decision).toEqual(denied(401, 'api_key_required'));
  });
});

describe('public services', () => {
  it('let everyone in, still taking platform credentials out and leaving foreign ones', async () => {
    const service = await addService({});
    const key = await createKey(t, org, owner, ['deployments:read'], 'org');
    expect(await check(service, {})).toEqual(allow([]));
    expect(await check(service, { authorization: 'Bearer theirs' })).toEqual(allow([]));
    expect(
      await check(service, { 'x-service-token': key.token, authorization: `Bearer ${key.token}` }),
    ).toEqual(allow(['x-service-token', 'authorization']));
  });
});

/** A browser: its cookies on the service's domain, following the flow. */
function cookiesFrom(setCookie: string[] | undefined): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of setCookie ?? []) {
    const [pair] = line.split(';');
    const [name, ...value] = (pair ?? '').split('=');
    if (name !== undefined) jar[name] = value.join('=');
  }
  return jar;
}

function cookieHeader(jar: Record<string, string>): string {
  return Object.entries(jar)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

const HTML = { accept: 'text/html,application/xhtml+xml' };

/** The sign-in on the API host, as the browser follows the redirect there. */
async function signInAt(location: string, person: TestUser | null) {
  const url = new URL(location);
  return t.app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: person === null ? {} : { cookie: `session=${person.token}` },
  });
}

/** The whole browser flow for a person; returns the cookie jar on the service's domain. */
async function browserSignIn(service: TestService, person: TestUser, path = '/page?x=1') {
  const first = await check(service, HTML, { url: path });
  if (first.kind !== 'redirect') throw new Error(`expected a redirect, got ${first.kind}`);
  const jar = cookiesFrom(first.setCookie);
  const signIn = await signInAt(first.location, person);
  expect(signIn.statusCode, signIn.body).toBe(302);
  const callback = new URL(String(signIn.headers.location));
  const back = await check(
    service,
    { ...HTML, cookie: cookieHeader(jar) },
    {
      url: `${callback.pathname}${callback.search}`,
    },
  );
  return { first, jar, callback, back };
}

describe('browsers on a private service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await addService({ accessControl: 'private', allowlist: [allowed.user.id] });
  });

  it('are sent to sign in on the API host with a state cookie on the service domain', async () => {
    const decision = await check(service, HTML, { url: '/docs?page=2' });
    expect(decision.kind).toBe('redirect');
    if (decision.kind !== 'redirect') return;
    const location = new URL(decision.location);
    expect(`${location.origin}${location.pathname}`).toBe(
      `${t.ctx.config.publicUrl}/api/services/${service.id}/access`,
    );
    expect(location.searchParams.get('return')).toBe(`${originOf(service)}/docs?page=2`);
    expect(decision.setCookie?.[0]).toMatch(
      new RegExp(
        `^${STATE_COOKIE}=[A-Za-z0-9_-]{32}; Max-Age=600; Path=/; HttpOnly; SameSite=Lax$`,
      ),
    );
    // Not a navigation (an API call, a POST): a 401 that says where to sign in.
    const api = await check(service, { accept: 'application/json' });
    expect(api).toEqual(denied(401, 'service_login_required'));
    expect(api.kind === 'deny' && api.message).toContain(`/api/services/${service.id}/access`);
  });

  it('come back with a one-time code exchanged for an HttpOnly session on the service domain', async () => {
    const { callback, back } = await browserSignIn(service, allowed);
    expect(`${callback.origin}${callback.pathname}`).toBe(
      `${originOf(service)}/__sparrow/callback`,
    );
    expect(callback.searchParams.get('return')).toBe('/page?x=1');
    expect(callback.searchParams.get('code')).toMatch(/^spc_/);
    expect(back.kind).toBe('redirect');
    if (back.kind !== 'redirect') return;
    expect(back.location).toBe('/page?x=1');
    const jar = cookiesFrom(back.setCookie);
    expect(jar[ACCESS_COOKIE]).toMatch(/^svs_/);
    expect(back.setCookie?.[0]).toContain('HttpOnly');
    // The session token is in a cookie only, never in a URL.
    expect(back.location).not.toContain(jar[ACCESS_COOKIE]);
    expect(await check(service, { cookie: cookieHeader(jar) })).toEqual(allow([]));
    // The proxy takes the access cookie out of the Cookie header (PLATFORM_COOKIES), not this decision.
    expect(await check(service, { cookie: `theirs=1; ${cookieHeader(jar)}` })).toEqual(allow([]));
    // The cookie is good for this one service only.
    const another = await addService({ accessControl: 'private' });
    const elsewhereDecision = await check(another, { ...HTML, cookie: cookieHeader(jar) });
    expect(elsewhereDecision.kind).toBe('redirect');
  });

  it('refuse a code used twice, from another browser, for another service, or expired', async () => {
    const { callback, jar, back } = await browserSignIn(service, allowed);
    expect(back.kind).toBe('redirect');
    const again = await check(
      service,
      { cookie: cookieHeader(jar) },
      {
        url: `${callback.pathname}${callback.search}`,
      },
    );
    expect(again).toEqual(denied(400, 'access_code_invalid'));

    // Another browser (not holding the state cookie) cannot use someone's code.
    const first = await check(service, HTML);
    if (first.kind !== 'redirect') throw new Error('expected a redirect');
    const signIn = await signInAt(first.location, allowed);
    const stolen = new URL(String(signIn.headers.location));
    const foreign = await check(
      service,
      { cookie: `${STATE_COOKIE}=${'B'.repeat(32)}` },
      {
        url: `${stolen.pathname}${stolen.search}`,
      },
    );
    expect(foreign).toEqual(denied(400, 'access_code_invalid'));

    // A code made for one service is worth nothing on another.
    const state = cookiesFrom(first.setCookie);
    const signIn2 = await signInAt(first.location, allowed);
    const code2 = new URL(String(signIn2.headers.location));
    const another = await addService({ accessControl: 'private' });
    expect(
      await check(
        another,
        { cookie: cookieHeader(state) },
        { url: `${code2.pathname}${code2.search}` },
      ),
    ).toEqual(denied(400, 'access_code_invalid'));

    // Expired (past its 60 seconds).
    const signIn3 = await signInAt(first.location, allowed);
    const code3 = new URL(String(signIn3.headers.location));
    await t.db
      .updateTable('service_access_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect(
      await check(
        service,
        { cookie: cookieHeader(state) },
        { url: `${code3.pathname}${code3.search}` },
      ),
    ).toEqual(denied(400, 'access_code_invalid'));
  });

  it('store codes and sessions only as hashes', async () => {
    const { callback, back } = await browserSignIn(service, allowed);
    const code = String(callback.searchParams.get('code'));
    const token = cookiesFrom(back.kind === 'redirect' ? back.setCookie : [])[ACCESS_COOKIE];
    const codes = await t.db.selectFrom('service_access_codes').selectAll().execute();
    const sessions = await t.db.selectFrom('service_sessions').selectAll().execute();
    const stored = JSON.stringify([codes, sessions]);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(String(token));
  });

  it('validate the return URL: only the service’s own host', async () => {
    const state = 'S'.repeat(32);
    const access = (ret: string, person: TestUser | null = allowed) =>
      signInAt(
        `${t.ctx.config.publicUrl}/api/services/${service.id}/access?return=${encodeURIComponent(ret)}&state=${state}`,
        person,
      );
    for (const bad of [
      'https://evil.example/',
      `http://${hostOf(service)}.evil.example/`,
      `http://svc-${org.id}.svc.localhost/`,
      'javascript:alert(1)',
      `//${hostOf(service)}/`,
      `http://user:pw@${hostOf(service)}/`,
    ]) {
      const response = await access(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.code, bad).toBe('invalid_return_url');
    }
    const good = await access(`https://${hostOf(service)}:8443/a/b?c=d`);
    expect(good.statusCode).toBe(302);
    const location = new URL(String(good.headers.location));
    expect(location.origin).toBe(`https://${hostOf(service)}:8443`);
    expect(location.searchParams.get('return')).toBe('/a/b?c=d');
    const noState = await signInAt(
      `${t.ctx.config.publicUrl}/api/services/${service.id}/access?return=${encodeURIComponent(`http://${hostOf(service)}/`)}`,
      allowed,
    );
    expect(noState.statusCode).toBe(400);
    expect(noState.json().error.code).toBe('validation_failed');
    const unknownService = await signInAt(
      `${t.ctx.config.publicUrl}/api/services/${org.id}/access?return=x&state=${state}`,
      allowed,
    );
    expect(unknownService.statusCode).toBe(404);
  });

  it('send someone not signed in to sign in, and refuse non-members and members off the allowlist', async () => {
    const url = `${t.ctx.config.publicUrl}/api/services/${service.id}/access?return=${encodeURIComponent(
      `http://${hostOf(service)}/`,
    )}&state=${'S'.repeat(32)}`;
    const anonymous = await signInAt(url, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
    const stranger = await signInAt(url, outsider);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.code).toBe('not_in_organization');
    const offList = await signInAt(url, other);
    expect(offList.statusCode).toBe(403);
    expect(offList.json().error.code).toBe('not_on_allowlist');
    const ownerOffList = await signInAt(url, owner);
    expect(ownerOffList.statusCode).toBe(403);
  });

  it('send a browser not signed in to the app’s sign-in screen, which brings it back here', async () => {
    const first = await check(service, HTML, { url: '/report?month=11' });
    if (first.kind !== 'redirect') throw new Error(`expected a redirect, got ${first.kind}`);
    const access = new URL(first.location);
    const accessPath = `${access.pathname}${access.search}`;
    const anonymous = await t.app.inject({ method: 'GET', url: accessPath, headers: HTML });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const signInScreen = String(anonymous.headers.location);
    expect(signInScreen).toBe(`/app/sign-in?redirect=${encodeURIComponent(accessPath)}`);
    // The screen's `redirect`, opened again once signed in, goes on to the service.
    const back = new URL(signInScreen, t.ctx.config.publicUrl).searchParams.get('redirect');
    expect(back).toBe(accessPath);
    const signedIn = await t.app.inject({
      method: 'GET',
      url: String(back),
      headers: { ...HTML, cookie: `session=${allowed.token}` },
    });
    expect(signedIn.statusCode).toBe(302);
    const callback = new URL(String(signedIn.headers.location));
    expect(`${callback.origin}${callback.pathname}`).toBe(
      `${originOf(service)}/__sparrow/callback`,
    );
    expect(callback.searchParams.get('return')).toBe('/report?month=11');
    // A client that does not ask for a page keeps the JSON answer.
    for (const accept of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
      const script = await t.app.inject({ method: 'GET', url: accessPath, headers: accept });
      expect(script.statusCode).toBe(401);
      expect(script.json().error.code).toBe('sign_in_required');
    }
    // A session that is no longer one counts as none.
    const stale = await t.app.inject({
      method: 'GET',
      url: accessPath,
      headers: { ...HTML, cookie: 'session=not-a-session' },
    });
    expect(stale.statusCode).toBe(302);
    expect(stale.headers.location).toBe(signInScreen);
  });

  it('let in every member when the allowlist is empty', async () => {
    const open = await addService({ accessControl: 'private' });
    const { back } = await browserSignIn(open, other);
    expect(back.kind).toBe('redirect');
  });
});

describe('revocation, on the very next request', () => {
  it('of a revoked key', async () => {
    const service = await addService({ accessControl: 'private' });
    const key = await createKey(t, org, owner, ['deployments:access'], 'org');
    const headers = { 'x-service-token': key.token };
    expect((await check(service, headers)).kind).toBe('allow');
    expect((await check(service, headers)).kind).toBe('allow');
    const revoked = await t.api.delete(`/orgs/${org.id}/api-keys/${key.id}`, {
      token: owner.token,
    });
    expect(revoked.status).toBe(204);
    expect(await check(service, headers)).toEqual(denied(401, 'invalid_service_token'));
  });

  it('of an allowlist entry removed, and of a member who leaves', async () => {
    const leaver = await addMember(t, org, owner, 'member');
    const service = await addService({
      accessControl: 'private',
      allowlist: [allowed.user.id, leaver.user.id],
    });
    const key = await createKey(t, org, allowed, ['deployments:access']);
    const leaverKey = await createKey(t, org, leaver, ['deployments:access']);
    expect((await check(service, { 'x-service-token': key.token })).kind).toBe('allow');
    expect((await check(service, { 'x-service-token': leaverKey.token })).kind).toBe('allow');
    await patchService(service, { allowlist: [leaver.user.id] });
    expect(await check(service, { 'x-service-token': key.token })).toEqual(
      denied(403, 'not_on_allowlist'),
    );
    const left = await t.api.delete(`/orgs/${org.id}/members/${leaver.user.id}`, {
      token: leaver.token,
    });
    expect(left.status).toBe(204);
    expect((await check(service, { 'x-service-token': leaverKey.token })).kind).toBe('deny');
  });

  it('of a service switched to private, whatever the routing still says', async () => {
    const service = await addService({});
    expect(await check(service, {})).toEqual(allow([]));
    await patchService(service, { accessControl: 'private' });
    expect(await check(service, {}, { routed: { accessControl: 'public' } })).toEqual(
      denied(401, 'service_login_required'),
    );
  });

  it('of a browser session whose platform session signed out', async () => {
    const person = await addMember(t, org, owner, 'member');
    const service = await addService({ accessControl: 'private' });
    const { back } = await browserSignIn(service, person);
    const jar = cookiesFrom(back.kind === 'redirect' ? back.setCookie : []);
    const headers = { ...HTML, cookie: cookieHeader(jar) };
    expect(await check(service, headers)).toEqual(allow([]));
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${person.token}` },
    });
    expect(out.statusCode).toBe(204);
    expect((await check(service, headers)).kind).toBe('redirect');
  });

  it('of a browser session whose person left the organization', async () => {
    const person = await addMember(t, org, owner, 'member');
    const service = await addService({ accessControl: 'private' });
    const { back } = await browserSignIn(service, person);
    const headers = {
      cookie: cookieHeader(cookiesFrom(back.kind === 'redirect' ? back.setCookie : [])),
    };
    expect(await check(service, headers)).toEqual(allow([]));
    const removed = await t.api.delete(`/orgs/${org.id}/members/${person.user.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect(await check(service, headers)).toEqual(denied(403, 'not_in_organization'));
  });
});

describe('over https', () => {
  it('uses __Host- cookies, Secure, and ignores a cookie without the prefix', async () => {
    const secure = await createPlatformTestApp({ PUBLIC_URL: 'https://sparrow.example.test' });
    try {
      const person = await createUser(secure);
      const team = await createOrg(secure, person, 'Secure Org');
      const deployment = await secure.app.inject({
        method: 'POST',
        url: `/api/orgs/${team.id}/deployments`,
        headers: { authorization: `Bearer ${person.token}` },
        payload: { name: 'Site' },
      });
      const created = await secure.app.inject({
        method: 'POST',
        url: `/api/orgs/${team.id}/deployments/${deployment.json().id}/services`,
        headers: { authorization: `Bearer ${person.token}` },
        payload: {
          name: 'tls',
          source: { type: 'image', image: 'busybox:1.36' },
          accessControl: 'private',
        },
      });
      const service: TestService = created.json();
      const ask = (headers: IncomingHttpHeaders, url = '/') =>
        check(service, headers, { app: secure, url });
      const first = await ask(HTML);
      if (first.kind !== 'redirect') throw new Error('expected a redirect');
      expect(first.setCookie?.[0]).toMatch(
        new RegExp(
          `^__Host-${STATE_COOKIE}=[^;]+; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax$`,
        ),
      );
      expect(new URL(first.location).searchParams.get('return')).toBe(
        `https://${hostOf(service)}/`,
      );
      const jar = cookiesFrom(first.setCookie);
      const url = new URL(first.location);
      const signIn = await secure.app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { cookie: `session=${person.token}` },
      });
      const callback = new URL(String(signIn.headers.location));
      const code = `${callback.pathname}${callback.search}`;
      // A state cookie without the prefix (as a sibling host could plant) does not count.
      const planted = `${STATE_COOKIE}=${jar[`__Host-${STATE_COOKIE}`]}`;
      expect(await ask({ cookie: planted }, code)).toEqual(denied(400, 'access_code_invalid'));
      const signIn2 = await secure.app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { cookie: `session=${person.token}` },
      });
      const callback2 = new URL(String(signIn2.headers.location));
      const back = await ask(
        { cookie: cookieHeader(jar) },
        `${callback2.pathname}${callback2.search}`,
      );
      if (back.kind !== 'redirect') throw new Error('expected a redirect');
      const session = cookiesFrom(back.setCookie);
      expect(back.setCookie?.[0]).toMatch(/^__Host-sparrow_access=svs_[^;]+; .*Secure/);
      expect(await ask({ cookie: cookieHeader(session) })).toEqual(allow([]));
      const unprefixed = `${ACCESS_COOKIE}=${session[`__Host-${ACCESS_COOKIE}`]}`;
      expect(await ask({ accept: 'application/json', cookie: unprefixed })).toEqual(
        denied(401, 'service_login_required'),
      );
    } finally {
      await secure.close();
    }
  });
});
