import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { addMember, createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

describe('nodes in the dashboard', () => {
  it('registers a node whose token and agent command are shown once, then rotates, drains and deletes it', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Acme');
    const auth = { token: owner.token };
    const page = await signedInPage(web, owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: web.url,
    });
    await page.goto(`/app/orgs/${org.id}/nodes`);
    await page.getByText('No node yet.').waitFor();

    await page.getByLabel('Node name').fill('rack-1');
    await page.getByRole('button', { name: 'Register node' }).click();
    const shown = page.getByRole('dialog', { name: 'rack-1 is registered' });
    const token =
      (await shown.getByRole('group', { name: 'Node token' }).locator('code').textContent()) ?? '';
    expect(token).toMatch(/^snt_/);
    const command = shown.getByRole('group', { name: 'Agent command' });
    expect(await command.locator('code').textContent()).toBe(
      `sparrow agent --server ${web.url} --token ${token}`,
    );
    await command.getByRole('button', { name: 'Copy Agent command' }).click();
    await command.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `sparrow agent --server ${web.url} --token ${token}`,
    );
    await screenshot(page, 'org-admin-node-registered');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Closed, it is gone, and a reload does not bring it back: the list shows the node, offline.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(token);
    await page.reload();
    const row = page.getByRole('row', { name: 'rack-1' });
    await row.locator('[data-state="offline"]').waitFor();
    expect(await page.content()).not.toContain(token);
    const listed = await web.t.api.get(`/orgs/${org.id}/nodes`, auth);
    const node = listed.body.find((candidate) => candidate.name === 'rack-1');
    if (node === undefined) throw new Error('rack-1 is not listed');
    expect(token.startsWith(node.tokenPrefix)).toBe(true);
    await screenshot(page, 'org-admin-nodes');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Rotate: a new token, shown once the same way; the node's prefix follows it.
    await row.getByRole('button', { name: 'Rotate the token of rack-1' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the token of rack-1?' })
      .getByRole('button', { name: 'Rotate token' })
      .click();
    const rotated = page.getByRole('dialog', { name: 'The new token of rack-1' });
    const newToken =
      (await rotated.getByRole('group', { name: 'Node token' }).locator('code').textContent()) ??
      '';
    expect(newToken).toMatch(/^snt_/);
    expect(newToken).not.toBe(token);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'detached' });
    const after = await web.t.api.get(`/orgs/${org.id}/nodes/${node.id}`, auth);
    expect(newToken.startsWith(after.body.tokenPrefix)).toBe(true);
    expect(await page.content()).not.toContain(newToken);

    // Drain, asked first; the state follows.
    await row.getByRole('button', { name: 'Drain rack-1' }).click();
    await page
      .getByRole('dialog', { name: 'Drain rack-1?' })
      .getByRole('button', { name: 'Drain node' })
      .click();
    await row.locator('[data-state="draining"]').waitFor();
    expect((await web.t.api.get(`/orgs/${org.id}/nodes/${node.id}`, auth)).body.draining).toBe(
      true,
    );

    // The node's page: its details, and the inventory that needs an agent.
    await row.getByRole('link', { name: 'rack-1' }).click();
    await page.getByRole('heading', { level: 1, name: /rack-1/ }).waitFor();
    await page
      .getByText('No agent is connected, so its containers cannot be listed now.')
      .waitFor();
    await page.getByText(`${newToken.slice(0, after.body.tokenPrefix.length)}…`).waitFor();
    await screenshot(page, 'org-admin-node');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Undrained and deleted from its page, which goes back to the list.
    await page.getByRole('button', { name: 'Undrain rack-1' }).click();
    await page
      .getByRole('heading', { level: 1, name: /rack-1/ })
      .locator('[data-state="offline"]')
      .waitFor();
    await page.getByRole('button', { name: 'Delete rack-1' }).click();
    await page
      .getByRole('dialog', { name: 'Delete rack-1?' })
      .getByRole('button', { name: 'Delete node' })
      .click();
    await page.getByText('No node yet.').waitFor();
    expect((await web.t.api.get(`/orgs/${org.id}/nodes/${node.id}`, auth)).status).toBe(404);
  }, 240_000);

  it('shows a member the nodes without their actions', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Globex');
    const member = await addMember(web.t, org, owner, 'member');
    const created = await web.t.api.post(
      `/orgs/${org.id}/nodes`,
      { name: 'edge' },
      { token: owner.token },
    );
    expect(created.status, created.text).toBe(201);
    const page = await signedInPage(web, member);
    await page.goto(`/app/orgs/${org.id}/nodes`);
    await page.getByRole('row', { name: 'edge' }).locator('[data-state="offline"]').waitFor();
    expect(await page.getByRole('region', { name: 'Register a node' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /rack|edge/ }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
