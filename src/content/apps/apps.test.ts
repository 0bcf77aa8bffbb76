import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  addMember,
  allEvents,
  createCollection,
  createUser,
  createWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

const REDIRECT = 'https://app.example.test/callback';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function registerApp(owner: TestUser, scopes = ['items:read', 'items:write', 'schema:read']) {
  const response = await t.http.post(
    '/apps',
    { name: 'Sync Bot', redirectUris: [REDIRECT], scopes },
    { token: owner.token },
  );
  expect(response.status).toBe(201);
  return response.body;
}

async function consent(
  workspace: TestWorkspace,
  app: { clientId: string },
  body: Record<string, unknown> = {},
  token = workspace.owner.token,
) {
  const proof = pkce();
  const response = await t.http.post(
    '/oauth/authorize',
    {
      clientId: app.clientId,
      redirectUri: REDIRECT,
      workspaceId: workspace.id,
      scopes: ['items:read', 'items:write'],
      state: 'xyz',
      codeChallenge: proof.challenge,
      codeChallengeMethod: 'S256',
      ...body,
    },
    { token },
  );
  return { response, verifier: proof.verifier };
}

async function install(
  workspace: TestWorkspace,
  app: { clientId: string; clientSecret: string },
  body: Record<string, unknown> = {},
) {
  const { response, verifier } = await consent(workspace, app, body);
  expect(response.status).toBe(200);
  const token = await t.http.post('/oauth/token', {
    code: response.body.code,
    clientSecret: app.clientSecret,
    redirectUri: REDIRECT,
    codeVerifier: verifier,
  });
  expect(token.status).toBe(200);
  return token.body;
}

describe('app records', () => {
  it('registers an app with a client secret shown once, for people only', async () => {
    const owner = await createUser(t);
    const app = await registerApp(owner);
    expect(app.clientId).toMatch(/^app_[0-9a-f]{32}$/);
    expect(app.clientSecret).toMatch(/^spcs_/);
    const list = await t.http.get('/apps', { token: owner.token });
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(app.clientSecret);
    const stranger = await createUser(t);
    expect((await t.http.get(`/apps/${app.id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.http.get('/apps')).status).toBe(401);
    for (const body of [
      { name: 'X', redirectUris: ['not a url'], scopes: ['items:read'] },
      { name: 'X', redirectUris: ['javascript:alert(1)'], scopes: ['items:read'] },
      { name: 'X', redirectUris: [REDIRECT], scopes: ['everything'] },
      { name: 'X', redirectUris: [REDIRECT], scopes: [] },
    ]) {
      expect((await t.http.post('/apps', body, { token: owner.token })).status).toBe(400);
    }
    const renamed = await t.http.patch(
      `/apps/${app.id}`,
      { name: 'Renamed' },
      { token: owner.token },
    );
    expect(renamed.body.name).toBe('Renamed');
    const rotated = await t.http.post(`/apps/${app.id}/client-secret`, undefined, {
      token: owner.token,
    });
    expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
  });

  it('lists the scopes with labels, publicly', async () => {
    const response = await t.http.get('/apps/scopes');
    expect(response.status).toBe(200);
    expect(response.body.map((entry: { scope: string }) => entry.scope)).toEqual([
      'items:read',
      'items:write',
      'schema:read',
      'schema:write',
      'members:read',
      'files:read',
      'files:write',
      'events:read',
      'webhooks:read',
      'webhooks:write',
    ]);
    expect(response.body.every((entry: { label: string }) => entry.label.length > 5)).toBe(true);
  });
});

describe('consent and token exchange', () => {
  it('sends a browser that opens the consent address to the app, with the same query; API clients keep JSON', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const query = `client_id=${app.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=items%3Aread&state=s%201&code_challenge=abc&code_challenge_method=S256&response_type=code`;
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const root of ['', '/api']) {
      // Signed in or not (the app signs the person in first).
      for (const cookies of [undefined, { session: workspace.owner.token }]) {
        const opened = await t.app.inject({
          method: 'GET',
          url: `${root}/oauth/authorize?${query}`,
          headers: { accept: html },
          cookies,
        });
        expect(opened.statusCode, opened.body).toBe(302);
        expect(opened.headers.location).toBe(`/app/oauth/authorize?${query}`);
      }
    }
    const json = await t.http.get('/oauth/authorize', {
      token: workspace.owner.token,
      query: { client_id: app.clientId, redirect_uri: REDIRECT },
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ app: { name: 'Sync Bot' } });
  });

  it('installs an app whose token acts within its scopes and role, logged as the app', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const preview = await t.http.get('/oauth/authorize', {
      token: workspace.owner.token,
      query: { client_id: app.clientId, redirect_uri: REDIRECT, scope: 'items:read' },
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      app: { name: 'Sync Bot' },
      scopes: [{ scope: 'items:read' }],
      workspaces: [{ id: workspace.id, role: 'owner' }],
    });
    const { response } = await consent(workspace, app);
    expect(response.body.redirectTo).toMatch(
      /^https:\/\/app\.example\.test\/callback\?code=spoc_[A-Za-z0-9_-]+&state=xyz$/,
    );
    const token = await install(workspace, app);
    expect(token).toMatchObject({
      token_type: 'Bearer',
      scope: 'items:read items:write',
      installation: { workspaceId: workspace.id, role: 'member', appName: 'Sync Bot' },
    });
    expect(token.access_token).toMatch(/^spa_/);
    const bearer = token.access_token;
    const list = await createCollection(t, workspace);
    const item = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/items`,
      { title: 'From the app' },
      { token: bearer },
    );
    expect(item.status).toBe(201);
    const [event] = await allEvents(t, workspace, { type: 'item.created' });
    expect(event?.actor).toEqual({
      kind: 'app',
      label: 'Sync Bot',
      appInstallationId: token.installation.id,
    });
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token: bearer })).status).toBe(200);
    const workspaces = await t.http.get('/workspaces', { token: bearer });
    expect(workspaces.body.map((entry: { id: string }) => entry.id)).toEqual([workspace.id]);
    const noScope = await t.http.get(`/workspaces/${workspace.id}/fields`, { token: bearer });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({
      code: 'missing_scope',
      details: { missing: ['schema:read'] },
    });
    const refused = await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'X' },
      { token: bearer },
    );
    expect(refused.body.error.code).toBe('app_not_allowed');
    const human = await t.http.get(`/workspaces/${workspace.id}/api-keys`, { token: bearer });
    expect(human.body.error.code).toBe('session_required');
    const role = await t.http.post(
      `/workspaces/${workspace.id}/fields`,
      { key: 'x', type: 'text', name: 'X' },
      { token: bearer },
    );
    expect(role.status).toBe(403);
    const other = await createWorkspace(t);
    expect((await t.http.get(`/workspaces/${other.id}`, { token: bearer })).status).toBe(404);
  });

  it('accepts the RFC 6749 form with HTTP Basic client credentials', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const { response, verifier } = await consent(workspace, app);
    const exchanged = await t.http.raw({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: response.body.code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }).toString(),
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.access_token).toMatch(/^spa_/);
    expect(exchanged.headers['cache-control']).toBe('no-store');
  });

  it('needs all three proofs, burns a code on any failed exchange and refuses reuse', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const exchange = (code: string, overrides: Record<string, unknown>) =>
      t.http.post('/oauth/token', {
        code,
        clientSecret: app.clientSecret,
        redirectUri: REDIRECT,
        codeVerifier: pkce().verifier,
        ...overrides,
      });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ clientSecret: 'spcs_wrong' }, 'invalid_client'],
      [{ redirectUri: `${REDIRECT}/other` }, 'invalid_grant'],
      [{}, 'invalid_grant'],
      [{ clientId: 'app_someone_else' }, 'invalid_client'],
    ];
    for (const [overrides, code] of cases) {
      const { response, verifier } = await consent(workspace, app);
      const failed = await exchange(response.body.code, {
        codeVerifier: verifier,
        ...overrides,
        ...(Object.keys(overrides).length === 0 ? { codeVerifier: pkce().verifier } : {}),
      });
      expect(failed.status, JSON.stringify(overrides)).toBe(403);
      expect(failed.body.error.code).toBe(code);
      const retried = await exchange(response.body.code, { codeVerifier: verifier });
      expect(retried.status).toBe(403);
    }
    const { response, verifier } = await consent(workspace, app);
    const first = await exchange(response.body.code, { codeVerifier: verifier });
    expect(first.status).toBe(200);
    const again = await exchange(response.body.code, { codeVerifier: verifier });
    expect(again.status).toBe(403);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}`, { token: first.body.access_token })).status,
    ).toBe(401);
    const expired = await consent(workspace, app);
    await t.db
      .updateTable('oauth_authorization_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('consumed_at', 'is', null)
      .execute();
    expect(
      (await exchange(expired.response.body.code, { codeVerifier: expired.verifier })).status,
    ).toBe(403);
    for (const body of [
      {},
      { code: 'x', clientSecret: 'y', redirectUri: REDIRECT },
      { code: 'x', clientSecret: 'y', redirectUri: REDIRECT, codeVerifier: 'short' },
      { grant_type: 'password', code: 'x', redirect_uri: REDIRECT, code_verifier: pkce().verifier },
      {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: REDIRECT,
        code_verifier: pkce().verifier,
      },
    ]) {
      expect((await t.http.post('/oauth/token', body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets only workspace admins consent, to registered redirect URIs and scopes, within their role', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const member = await addMember(t, workspace, 'member');
    expect((await consent(workspace, app, {}, member.token)).response.status).toBe(403);
    const outsider = await createUser(t);
    expect((await consent(workspace, app, {}, outsider.token)).response.status).toBe(404);
    const redirect = await consent(workspace, app, { redirectUri: `${REDIRECT}?x=1` });
    expect(redirect.response.body.error.code).toBe('invalid_redirect_uri');
    const scope = await consent(workspace, app, { scopes: ['webhooks:write'] });
    expect(scope.response.body.error.code).toBe('invalid_scope');
    const unknown = await consent(workspace, { clientId: 'app_nobody' });
    expect(unknown.response.body.error.code).toBe('unknown_client');
    const plain = await consent(workspace, app, { codeChallengeMethod: 'plain' });
    expect(plain.response.status).toBe(400);
    const admin = await addMember(t, workspace, 'admin');
    const tooHigh = await consent(workspace, app, { role: 'owner' }, admin.token);
    expect(tooHigh.response.body.error.code).toBe('role_above_granter');
    expect((await consent(workspace, app, {}, admin.token)).response.status).toBe(200);
  });

  it('lists and revokes installations, for people only; reinstalling replaces', async () => {
    const workspace = await createWorkspace(t);
    const app = await registerApp(workspace.owner);
    const first = await install(workspace, app);
    const second = await install(workspace, app, { role: 'viewer' });
    const path = `/workspaces/${workspace.id}/app-installations` as const;
    const list = await t.http.get(path, { token: workspace.owner.token });
    expect(list.body.map((entry) => [entry.role, entry.revokedAt === null])).toEqual([
      ['viewer', true],
      ['member', false],
    ]);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}`, { token: first.access_token })).status,
    ).toBe(401);
    expect((await t.http.get(path, { token: second.access_token })).status).toBe(403);
    const revoked = await t.http.delete(`${path}/${second.installation.id}`, {
      token: workspace.owner.token,
    });
    expect(revoked.status).toBe(204);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}`, { token: second.access_token })).status,
    ).toBe(401);
  });
});
