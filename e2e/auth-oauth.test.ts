import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser, createWorkspace, TEST_PASSWORD } from '../test/helpers/factories.js';

const web = useBrowserApp();

/** The OAuth client's redirect URI: a real HTTP receiver that records where the browser came back. */
const arrivals: URL[] = [];
const receiver = createServer((request, response) => {
  arrivals.push(new URL(request.url ?? '/', 'http://receiver.invalid'));
  response.setHeader('content-type', 'text/html');
  response.end('<!doctype html><html lang="en"><title>Back at the app</title><h1>Back</h1></html>');
});
let redirectUri = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('the OAuth consent page', () => {
  it('signs in, shows the app, its scopes in words and the workspaces; approve installs it', async () => {
    const owner = await createUser(web.t);
    await createWorkspace(web.t, owner, 'First');
    const second = await createWorkspace(web.t, owner, 'Second');
    const app = await web.t.http.post(
      '/apps',
      { name: 'Sync Bot', redirectUris: [redirectUri], scopes: ['items:read', 'schema:read'] },
      { token: owner.token },
    );
    expect(app.status, app.text).toBe(201);
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.body.clientId,
      redirect_uri: redirectUri,
      scope: 'items:read schema:read',
      state: 'state-123',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });

    // The address an OAuth client sends the person to: the API's, opened by a browser.
    const page = await web.page();
    await page.goto(`/oauth/authorize?${query.toString()}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Authorize Sync Bot' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/oauth/authorize');
    await page.getByText('Read cards, their bodies and the workspace overview').waitFor();
    await page.getByText('Read fields, statuses, lists, list groups and saved views').waitFor();
    await screenshot(page, 'oauth-consent');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Install in workspace').selectOption({ label: 'Second (owner)' });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Back' }).waitFor();

    const back = new URL(page.url());
    expect(back.pathname).toBe('/callback');
    expect(back.searchParams.get('state')).toBe('state-123');
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^spoc_/);
    const exchange = await fetch(`${web.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code ?? '',
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: app.body.clientId,
        client_secret: app.body.clientSecret,
      }),
    });
    expect(exchange.status).toBe(200);
    const token = (await exchange.json()) as { access_token: string };
    const lists = await fetch(`${web.url}/workspaces/${second.id}/collections`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(lists.status).toBe(200);
  });

  it('denies back to the app with access_denied and the state, and refuses an unknown app in words', async () => {
    const owner = await createUser(web.t);
    await createWorkspace(web.t, owner, 'Only');
    const app = await web.t.http.post(
      '/apps',
      { name: 'Nosy', redirectUris: [redirectUri], scopes: ['items:read'] },
      { token: owner.token },
    );
    const page = await web.page({ colorScheme: 'dark' });
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.body.clientId,
      redirect_uri: redirectUri,
      state: 'st 2',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`/oauth/authorize?${query.toString()}`);
    await page.getByRole('heading', { name: 'Authorize Nosy' }).waitFor();
    await screenshot(page, 'oauth-consent-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'Back' }).waitFor();
    const back = new URL(page.url());
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st 2');
    expect(back.searchParams.get('code')).toBeNull();
    const installed = await web.t.http.get('/workspaces', { token: owner.token });
    const workspaceId = installed.body[0]?.id;
    const installations = await web.t.http.get(`/workspaces/${workspaceId}/app-installations`, {
      token: owner.token,
    });
    expect(installations.body).toEqual([]);

    // An address the app did not register: said here, never redirected to.
    query.set('redirect_uri', 'https://evil.example/cb');
    await page.goto(`/app/oauth/authorize?${query.toString()}`);
    await page.getByRole('alert').getByText('This authorization request was refused').waitFor();
    expect(new URL(page.url()).origin).toBe(web.url);
  });
});
