import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { providerEnv, useTestProvider } from '../../../test/fixtures/oidc.js';
import { createUser, uniqueEmail } from '../../../test/helpers/factories.js';
import { createOrg, createPlatformTestApp } from '../../../test/helpers/platform.js';
import { ACCESS_COOKIE, checkServiceAccess, STATE_COOKIE } from './access.js';

const PUBLIC_URL = 'http://sparrow.example.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/idp/callback`;

const idp = useTestProvider(CALLBACK);
const t = useApp(() =>
  createPlatformTestApp({
    PUBLIC_URL,
    SERVICE_DOMAIN: 'apps.example.test',
    REGISTRATION_MODE: 'open',
    ...providerEnv(idp),
  }),
);

function cookie(setCookie: unknown, name: string): string {
  const lines = Array.isArray(setCookie) ? setCookie : [String(setCookie)];
  for (const line of lines) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(String(line));
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`no ${name} cookie set`);
}

const local = (url: string) => {
  const parsed = new URL(url, PUBLIC_URL);
  return `${parsed.pathname}${parsed.search}`;
};

describe('a browser not signed in to the platform', () => {
  it('signs in at the identity provider and comes back to the private service', async () => {
    // The person's account exists (from an earlier provider sign-in) and is a member.
    const email = uniqueEmail('browser');
    idp.signInAs('browser-subject', { email, verified: true, name: 'Brow Ser' });
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/idp',
      payload: { idToken: await idp.idToken() },
    });
    expect(first.statusCode).toBe(201);
    const owner = await createUser(t);
    const org = await createOrg(t, owner, 'OIDC Org');
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${org.id}/members`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { email, role: 'member' },
    });
    expect(added.statusCode).toBe(201);
    const deployment = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${org.id}/deployments`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { name: 'Site' },
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${org.id}/deployments/${deployment.json().id}/services`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        name: 'admin',
        source: { type: 'image', image: 'busybox:1.36' },
        accessControl: 'private',
      },
    });
    const service = created.json();
    const routed = { ...service, host: `svc-${service.id}.apps.example.test` };
    const html = { accept: 'text/html' };

    // 1. The service's domain sends the browser to the API host.
    const atService = await checkServiceAccess(t.ctx, routed, {
      method: 'GET',
      url: '/reports?month=11',
      headers: html,
    });
    if (atService.kind !== 'redirect')
      throw new Error(`expected a redirect, got ${atService.kind}`);
    const state = cookie(atService.setCookie, STATE_COOKIE);
    expect(atService.location.startsWith(`${PUBLIC_URL}/api/services/${service.id}/access?`)).toBe(
      true,
    );
    // 2. Not signed in there: to the app's sign-in screen (password or provider), coming back to this step.
    const accessPath = local(atService.location);
    const script = await t.app.inject({ method: 'GET', url: accessPath });
    expect(script.statusCode).toBe(401);
    expect(script.json().error.code).toBe('sign_in_required');
    const access = await t.app.inject({ method: 'GET', url: accessPath, headers: html });
    expect(access.statusCode).toBe(302);
    const signInScreen = String(access.headers.location);
    expect(signInScreen).toBe(`/app/sign-in?redirect=${encodeURIComponent(accessPath)}`);
    // The screen's "Sign in with …" link: to the provider, and back to the screen.
    const start = `/auth/idp/start?${new URLSearchParams({ returnTo: signInScreen }).toString()}`;
    const started = await t.app.inject({ method: 'GET', url: start });
    expect(started.statusCode).toBe(302);
    const idpState = cookie(started.headers['set-cookie'], 'idp_state');
    const back = await idp.follow(String(started.headers.location));
    const signedIn = await t.app.inject({
      method: 'GET',
      url: local(back),
      cookies: { idp_state: idpState },
    });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe(signInScreen);
    const session = cookie(signedIn.headers['set-cookie'], 'session');
    // 3. Signed in: a one-time code to the service's domain.
    // Signed in, the screen opens its `redirect` (a full page load): the access step again.
    const redirect = new URL(signInScreen, PUBLIC_URL).searchParams.get('redirect');
    expect(redirect).toBe(accessPath);
    const granted = await t.app.inject({
      method: 'GET',
      url: String(redirect),
      headers: html,
      cookies: { session },
    });
    expect(granted.statusCode).toBe(302);
    const callback = new URL(String(granted.headers.location));
    expect(callback.host).toBe(routed.host);
    // 4. The service's domain takes the code and sets its own session.
    const exchanged = await checkServiceAccess(t.ctx, routed, {
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { ...html, cookie: `${STATE_COOKIE}=${state}` },
    });
    if (exchanged.kind !== 'redirect')
      throw new Error(`expected a redirect, got ${exchanged.kind}`);
    expect(exchanged.location).toBe('/reports?month=11');
    const token = cookie(exchanged.setCookie, ACCESS_COOKIE);
    const inside = await checkServiceAccess(t.ctx, routed, {
      method: 'GET',
      url: '/reports?month=11',
      headers: { ...html, cookie: `${ACCESS_COOKIE}=${token}` },
    });
    expect(inside).toEqual({ kind: 'allow', removeHeaders: [] });
  });
});
