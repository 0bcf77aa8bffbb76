import { generateKeyPair, importJWK, SignJWT } from 'jose';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { providerEnv, useTestProvider } from '../../../test/fixtures/oidc.js';
import { createTestApp } from '../../../test/helpers/app.js';
import { createUser, createWorkspace, uniqueEmail } from '../../../test/helpers/factories.js';

const PUBLIC_URL = 'http://sparrow.example.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/idp/callback`;

const idp = useTestProvider(CALLBACK);
const t = useApp(() =>
  createTestApp({ PUBLIC_URL, ...providerEnv(idp), REGISTRATION_MODE: 'open' }),
);
const closed = useApp(() => createTestApp({ PUBLIC_URL, ...providerEnv(idp) }));

let subjects = 0;
function person(email = uniqueEmail('idp'), verified = true) {
  subjects += 1;
  const subject = `subject-${subjects}-${Date.now()}`;
  idp.signInAs(subject, { email, verified, name: 'Ida Provider' });
  return { subject, email };
}

async function handSigned(claims: Record<string, unknown>, key?: Key) {
  const signingKey = key ?? ((await importJWK(idp.signingKey, 'RS256')) as Key);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: idp.issuer,
    aud: idp.clientId,
    sub: `forged-${now}-${Math.random()}`,
    iat: now,
    exp: now + 300,
    email: uniqueEmail('forged'),
    email_verified: true,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .sign(signingKey);
}

describe('provider sign-in with an id_token', () => {
  it('creates the account (201), then signs in (200), never returning the subject', async () => {
    const { subject, email } = person();
    const first = await t.http.post('/auth/idp', { idToken: await idp.idToken() });
    expect(first.status).toBe(201);
    expect(first.body.user).toMatchObject({ email, name: 'Ida Provider' });
    expect(String(first.headers['set-cookie'])).toMatch(/^session=ses_/);
    const again = await t.api.post('/auth/idp', { idToken: await idp.idToken() });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(first.body.user.id);
    const identities = await t.http.get('/auth/identities', { token: again.body.token });
    expect(identities.body).toEqual([expect.objectContaining({ issuer: idp.issuer, email })]);
    expect(identities.text).not.toContain(subject);
  });

  it('refuses bad tokens with 401 and the reason', async () => {
    const other = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string]> = [
      [await handSigned({ exp: now - 60 }), 'expired'],
      [await handSigned({ aud: 'someone-else' }), 'audience'],
      [await handSigned({ iss: 'https://evil.example.test' }), 'issuer'],
      [await handSigned({}, other.privateKey), 'signature'],
      [await handSigned({ email_verified: false }), 'email_unverified'],
      ['not.a.token', 'malformed'],
    ];
    for (const [idToken, reason] of cases) {
      const response = await t.http.post('/auth/idp', { idToken });
      expect(response.status, reason).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_id_token', details: { reason } });
    }
    const noExpiry = await new SignJWT({ email: uniqueEmail(), email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(idp.issuer)
      .setAudience(idp.clientId)
      .setSubject('no-expiry')
      .sign((await importJWK(idp.signingKey, 'RS256')) as Key);
    expect((await t.http.post('/auth/idp', { idToken: noExpiry })).status).toBe(401);
    person(uniqueEmail('unverified'), false);
    const unverified = await t.http.post('/auth/idp', { idToken: await idp.idToken() });
    expect(unverified.body.error.details).toMatchObject({ reason: 'email_unverified' });
    expect((await t.http.post('/auth/idp', { idToken: '' })).status).toBe(400);
  });

  it('never links by e-mail: an existing address without this identity is 409', async () => {
    const existing = await createUser(t, { email: uniqueEmail('taken') });
    person(existing.user.email.toUpperCase());
    const response = await t.http.post('/auth/idp', { idToken: await idp.idToken() });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('identity_clash');
  });

  it('obeys invite mode: 403 without an invitation, 201 with one for the address', async () => {
    const { email } = person();
    const idToken = await idp.idToken();
    const refused = await closed.http.post('/auth/idp', { idToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('registration_closed');
    const workspace = await createWorkspace(closed);
    const wrong = await closed.http.post(
      `/workspaces/${workspace.id}/invitations`,
      { email: uniqueEmail('other'), role: 'viewer' },
      { token: workspace.owner.token },
    );
    expect(
      (await closed.http.post('/auth/idp', { idToken, invitation: wrong.body.token })).status,
    ).toBe(403);
    const invitation = await closed.http.post(
      `/workspaces/${workspace.id}/invitations`,
      { email, role: 'member' },
      { token: workspace.owner.token },
    );
    const joined = await closed.http.post('/auth/idp', {
      idToken,
      invitation: invitation.body.token,
    });
    expect(joined.status).toBe(201);
    const membership = await closed.http.get(`/workspaces/${workspace.id}`, {
      token: joined.body.token,
    });
    expect(membership.body.role).toBe('member');
    const policy = await closed.http.get('/auth/registration');
    expect(policy.body).toEqual({
      mode: 'invite',
      doors: { password: false, provider: false, invitation: true },
      providerSignIn: true,
      providerName: new URL(idp.issuer).host,
    });
  });
});

describe('linking identities', () => {
  it('links from a session, idempotently, and refuses clashes', async () => {
    const owner = await createUser(t, { email: uniqueEmail('linker') });
    person(uniqueEmail('elsewhere'));
    const idToken = await idp.idToken();
    const linked = await t.http.post('/auth/identities/idp', { idToken }, { token: owner.token });
    expect(linked.status).toBe(200);
    expect(linked.body.issuer).toBe(idp.issuer);
    const again = await t.http.post('/auth/identities/idp', { idToken }, { token: owner.token });
    expect(again.body.id).toBe(linked.body.id);
    const signedIn = await t.http.post('/auth/idp', { idToken });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(owner.user.id);
    const someoneElse = await createUser(t);
    const taken = await t.http.post(
      '/auth/identities/idp',
      { idToken },
      { token: someoneElse.token },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('identity_taken');
    person();
    const second = await t.http.post(
      '/auth/identities/idp',
      { idToken: await idp.idToken() },
      { token: owner.token },
    );
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('identity_exists');
    expect((await t.http.post('/auth/identities/idp', { idToken })).status).toBe(401);
    expect(
      (await t.http.post('/auth/identities/idp', { idToken: 'x.y.z' }, { token: owner.token }))
        .status,
    ).toBe(401);
    const workspace = await createWorkspace(t);
    const key = await t.http.post(
      `/workspaces/${workspace.id}/api-keys`,
      { name: 'K', role: 'admin' },
      { token: workspace.owner.token },
    );
    const byKey = await t.http.post('/auth/identities/idp', { idToken }, { token: key.body.token });
    expect(byKey.status).toBe(403);
  });
});

describe('browser sign-in', () => {
  it('redirects to the provider and back, and sets the session cookie', async () => {
    const { email } = person();
    const start = await t.http.get('/auth/idp/start', { query: { returnTo: '/board?x=1' } });
    expect(start.status).toBe(302);
    const location = String(start.headers.location);
    expect(location.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    const authorize = new URL(location);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK);
    const stateCookie = /idp_state=([^;]+)/.exec(String(start.headers['set-cookie']))?.[1] ?? '';
    const back = new URL(await idp.follow(location));
    expect(back.toString().startsWith(CALLBACK)).toBe(true);
    const forged = await t.api.get(`/auth/idp/callback${back.search}`, {
      cookies: { idp_state: 'another-browser' },
    });
    // A browser gets the app's sign-in screen with the reason, never a JSON error.
    expect(forged.status).toBe(303);
    expect(forged.headers.location).toBe('/app/sign-in?idpError=invalid_state');
    const callback = await t.api.get(`/auth/idp/callback${back.search}`, {
      cookies: { idp_state: stateCookie },
    });
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe('/board?x=1');
    const session = /session=(ses_[^;]+)/.exec(String(callback.headers['set-cookie']))?.[1];
    const me = await t.http.get('/auth/me', { cookies: { session: session ?? '' } });
    expect(me.body.email).toBe(email);
    const replayed = await t.api.get(`/auth/idp/callback${back.search}`, {
      cookies: { idp_state: stateCookie },
    });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.location).toBe('/app/sign-in?idpError=invalid_state');
  });

  it('sends a refusal back to the site with the error code', async () => {
    person(uniqueEmail('not-verified'), false);
    const start = await t.http.get('/auth/idp/start');
    const stateCookie = /idp_state=([^;]+)/.exec(String(start.headers['set-cookie']))?.[1] ?? '';
    const back = new URL(await idp.follow(String(start.headers.location)));
    const callback = await t.api.get(`/auth/idp/callback${back.search}`, {
      cookies: { idp_state: stateCookie },
    });
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe('/?idpError=invalid_id_token');
  });

  it('answers 403 idp_disabled when no provider is configured', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.http.post('/auth/idp', { idToken: 'a.b.c' })).body.error.code).toBe(
        'idp_disabled',
      );
      expect((await plain.http.get('/auth/idp/start')).status).toBe(403);
      const user = await createUser(plain);
      expect(
        (await plain.http.post('/auth/identities/idp', { idToken: 'a.b.c' }, { token: user.token }))
          .status,
      ).toBe(403);
    } finally {
      await plain.close();
    }
  });
});
