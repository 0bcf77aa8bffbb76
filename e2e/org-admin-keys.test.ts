import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { addMember, createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

describe('platform API keys in the dashboard', () => {
  it('creates a scoped key whose token is shown once and works with its scope only, until revoked', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Acme');
    const page = await signedInPage(web, owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: web.url,
    });
    await page.goto(`/app/orgs/${org.id}/api-keys`);
    await page.getByText('No API key yet.').waitFor();

    const form = page.getByRole('region', { name: 'Create an API key' });
    await form.getByLabel('Name', { exact: true }).fill('CI bot');
    await form.getByLabel('Owner').selectOption('org');
    const nodesRead = form.getByRole('checkbox', { name: 'nodes:read' });
    // Each scope's meaning is its checkbox's description.
    await form.getByText('List and get nodes and their inventory.').waitFor();
    expect(await nodesRead.getAttribute('aria-describedby')).toBe('scope-nodes-read-meaning');
    await nodesRead.check();
    await form.getByRole('checkbox', { name: 'workers:read' }).check();
    await screenshot(page, 'org-admin-keys-form');
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'The token of CI bot' });
    const token = (await shown.locator('code').textContent()) ?? '';
    expect(token.length).toBeGreaterThan(20);
    await shown.getByRole('button', { name: 'Copy API key token' }).click();
    await shown.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, 'org-admin-key-token');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The token works with its scope, and only with it.
    const nodes = await web.t.api.get(`/orgs/${org.id}/nodes`, { token });
    expect(nodes.status, nodes.text).toBe(200);
    const projects = await web.t.api.get(`/orgs/${org.id}/projects`, { token });
    expect(projects.status).toBe(403);
    expect(projects.text).toContain('missing_scope');

    // Closed, then reloaded: never shown again; the list shows its prefix, owner and scopes.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByRole('listitem', { name: 'CI bot' });
    await row.getByText('organization key', { exact: false }).waitFor();
    await row.getByText('nodes:read, workers:read').waitFor();
    const listed = await web.t.api.get(`/orgs/${org.id}/api-keys`, { token: owner.token });
    await row.getByText(`${listed.body[0]?.tokenPrefix ?? 'none'}…`).waitFor();
    expect(await page.content()).not.toContain(token);

    // Revoked after a confirmation: refused from then on, and still listed, marked.
    await row.getByRole('button', { name: 'Revoke CI bot' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke CI bot?' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await row.getByText(/^Revoked /).waitFor();
    expect((await web.t.api.get(`/orgs/${org.id}/nodes`, { token })).status).toBe(401);
    await page.reload();
    await page
      .getByRole('listitem', { name: 'CI bot' })
      .getByText(/^Revoked /)
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  }, 240_000);

  it('offers a member personal keys only', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Globex');
    const member = await addMember(web.t, org, owner, 'member');
    const page = await signedInPage(web, member);
    await page.goto(`/app/orgs/${org.id}/api-keys`);
    const owners = page.getByRole('region', { name: 'Create an API key' }).getByLabel('Owner');
    await owners.waitFor();
    expect(await owners.locator('option').count()).toBe(1);
    expect(await owners.inputValue()).toBe('user');
  });
});
