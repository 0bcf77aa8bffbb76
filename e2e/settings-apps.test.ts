import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createUser,
  createWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../test/helpers/factories.js';

const web = useBrowserApp();
const REDIRECT = 'https://app.example.test/callback';

/** A page signed in as `user` (the session cookie the sign-in screen would set). */
async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  return page;
}

/** An app registered by a developer and installed in the workspace by its owner: its token. */
async function installApp(workspace: TestWorkspace, name: string): Promise<string> {
  const developer = await createUser(web.t, { name: 'Dev' });
  const app = await web.t.http.post(
    '/apps',
    { name, redirectUris: [REDIRECT], scopes: ['items:read', 'items:write', 'schema:read'] },
    { token: developer.token },
  );
  expect(app.status).toBe(201);
  const verifier = randomBytes(32).toString('base64url');
  const consent = await web.t.http.post(
    '/oauth/authorize',
    {
      clientId: app.body.clientId,
      redirectUri: REDIRECT,
      workspaceId: workspace.id,
      scopes: ['items:read', 'schema:read'],
      state: 'xyz',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
    },
    { token: workspace.owner.token },
  );
  expect(consent.status).toBe(200);
  const token = await web.t.http.post('/oauth/token', {
    code: consent.body.code,
    clientSecret: app.body.clientSecret,
    redirectUri: REDIRECT,
    codeVerifier: verifier,
  });
  expect(token.status).toBe(200);
  return token.body.access_token;
}

describe('installed apps', () => {
  it('lists an app with its scopes in words and who installed it', async () => {
    const owner = await createUser(web.t, { name: 'Grace Owner' });
    const workspace = await createWorkspace(web.t, owner);
    const token = await installApp(workspace, 'Sync Bot');
    expect((await web.t.http.get(`/workspaces/${workspace.id}/fields`, { token })).status).toBe(
      200,
    );

    const page = await signedIn(owner);
    await page.goto(`/app/${workspace.slug}/settings/apps`);
    const row = page.getByRole('listitem', { name: 'Sync Bot' });
    await row.getByText(/^Installed by Grace Owner on /).waitFor();
    const scopes = row.getByRole('list', { name: 'Scopes of Sync Bot' });
    await scopes.getByText('(items:read)').waitFor();
    await scopes.getByText('(schema:read)').waitFor();
    await screenshot(page, 'apps-list');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('revokes an app after confirmation: its token stops working', async () => {
    const workspace = await createWorkspace(web.t);
    const token = await installApp(workspace, 'Sync Bot');
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/apps`);
    const row = page.getByRole('listitem', { name: 'Sync Bot' });
    await row.getByRole('button', { name: 'Revoke Sync Bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Sync Bot?' });
    await dialog.getByRole('button', { name: 'Revoke app' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText(/^Revoked /).waitFor();
    expect((await web.t.http.get(`/workspaces/${workspace.id}/fields`, { token })).status).toBe(
      401,
    );
  });

  it('shows the empty page in dark, and tells a member why the page is closed', async () => {
    const workspace = await createWorkspace(web.t);
    const page = await signedIn(workspace.owner, 'dark');
    await page.goto(`/app/${workspace.slug}/settings/apps`);
    await page.getByText('No app is installed.').waitFor();
    await screenshot(page, 'apps-empty-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    const member = await addMember(web.t, workspace, 'member');
    const closed = await signedIn(member);
    await closed.goto(`/app/${workspace.slug}/settings/apps`);
    await closed.getByText(/Only admins and owners can see and revoke installed apps/).waitFor();
  });
});
