import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { addMember, createWorkspace, type TestUser } from '../test/helpers/factories.js';

const web = useBrowserApp();

/** A page signed in as `user` (the session cookie the sign-in screen would set). */
async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  return page;
}

describe('API keys', () => {
  it('creates a key whose token is shown once with a copy button, then revokes it', async () => {
    const workspace = await createWorkspace(web.t);
    const page = await signedIn(workspace.owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: web.url,
    });
    await page.goto(`/app/${workspace.slug}/settings/api-keys`);
    await page.getByText('No API key yet.').waitFor();
    const form = page.getByRole('region', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('Deploy bot');
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('region', { name: 'The token of Deploy bot' });
    const token = (await shown.locator('code').textContent()) ?? '';
    expect(token).toMatch(/^swk_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, 'api-keys-token-once');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The token works, as a viewer.
    const read = await web.t.http.get(`/workspaces/${workspace.id}/fields`, { token });
    expect(read.status).toBe(200);

    // Once dismissed (or after a reload) it is never shown again; the list shows its prefix.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByRole('listitem', { name: 'Deploy bot' });
    await row.getByText(`${token.slice(0, 8)}`, { exact: false }).waitFor();
    expect(await page.content()).not.toContain(token);

    await row.getByRole('button', { name: 'Revoke Deploy bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Deploy bot?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await web.t.http.get(`/workspaces/${workspace.id}/fields`, { token })).status).toBe(
      200,
    );
    await row.getByRole('button', { name: 'Revoke Deploy bot' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/^Revoked /).waitFor();
    expect((await web.t.http.get(`/workspaces/${workspace.id}/fields`, { token })).status).toBe(
      401,
    );
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('offers roles up to the creator’s, and tells a member why the page is closed', async () => {
    const workspace = await createWorkspace(web.t);
    const admin = await addMember(web.t, workspace, 'admin', 'Ada');
    const page = await signedIn(admin, 'dark');
    await page.goto(`/app/${workspace.slug}/settings/api-keys`);
    const form = page.getByRole('region', { name: 'Create an API key' });
    await form.getByLabel('Role').waitFor();
    expect(await form.getByLabel('Role').locator('option').allTextContents()).toEqual([
      'viewer',
      'member',
      'admin',
    ]);
    await screenshot(page, 'api-keys-dark');
    expect(await accessibilityViolations(page)).toEqual([]);

    const member = await addMember(web.t, workspace, 'member');
    const closed = await signedIn(member);
    await closed.goto(`/app/${workspace.slug}/settings/api-keys`);
    await closed.getByText(/Only admins and owners can see and manage API keys/).waitFor();
    expect(await closed.getByRole('button', { name: 'Create key' }).count()).toBe(0);
  });
});
