import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { addMember, createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

describe('a project’s secrets, versions and deletion in the dashboard', () => {
  it('lists secret names but never a value, after saving or reloading; replaces and removes', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const token = { token: owner.token };
    const created = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'vault' }, token);
    const projectId: string = created.body.id;
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await page.getByText('No secret.').waitFor();

    const first = 's3cret-first-9f8e7d';
    await page.getByLabel('Secret name').fill('DATABASE_URL');
    await page.getByLabel('Secret value').fill(first);
    await page.getByRole('button', { name: 'Add secret' }).click();
    await page.getByRole('status').getByText('Saved the secret DATABASE_URL.').waitFor();
    const names = page.getByRole('list', { name: 'Secret names' });
    await names.getByText('DATABASE_URL').waitFor();
    expect(await page.content()).not.toContain(first);
    await page.reload();
    await names.getByText('DATABASE_URL').waitFor();
    expect(await page.content()).not.toContain(first);

    const second = 's3cret-second-1a2b3c';
    await page.getByRole('button', { name: 'Replace DATABASE_URL' }).click();
    await page.getByLabel('Secret value').fill(second);
    await page.getByRole('button', { name: 'Replace secret' }).click();
    // Said after the replace too (the form is made again for the next secret).
    await page.getByRole('status').getByText('Saved the secret DATABASE_URL.').waitFor();
    await expect
      .poll(async () => (await page.getByLabel('Secret value').inputValue()) === '', {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await page.content()).not.toContain(second);
    const listed = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}/secrets`, token);
    expect(listed.body.map((secret: { name: string }) => secret.name)).toEqual(['DATABASE_URL']);
    expect(listed.text).not.toContain(second);
    await screenshot(page, 'org-project-secrets');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove DATABASE_URL' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove secret' }).click();
    await page.getByText('No secret.').waitFor();
    const after = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}/secrets`, token);
    expect(after.body).toEqual([]);

    // A member may not write secrets: the refusal is said in words.
    const member = await addMember(web.t, org, owner, 'member');
    const memberPage = await signedInPage(web, member);
    await memberPage.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await memberPage.getByText('Only an owner or an admin can change them').waitFor();
    await memberPage.getByLabel('Secret name').fill('TOKEN');
    await memberPage.getByLabel('Secret value').fill('nope');
    await memberPage.getByRole('button', { name: 'Add secret' }).click();
    await memberPage.getByRole('alert').filter({ hasText: /role/i }).waitFor();
  });

  it('compares a version with the current configuration and restores it', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const token = { token: owner.token };
    const created = await web.t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'api', description: 'First', extensions: ['acme.one'], forwardPorts: [3000] },
      token,
    );
    const projectId: string = created.body.id;
    const patched = await web.t.api.patch(
      `/orgs/${org.id}/projects/${projectId}`,
      { name: 'api-v2', description: '', extensions: ['acme.two'], forwardPorts: [] },
      token,
    );
    expect(patched.status, patched.text).toBe(200);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await page.getByRole('heading', { level: 1, name: 'api-v2' }).waitFor();

    await page.getByRole('button', { name: 'Compare version 1' }).click();
    const diff = page.getByRole('region', { name: /^Version 1 against/ });
    await diff.getByText('api-v2').waitFor();
    for (const text of ['acme.one', 'acme.two', 'First', '3000']) {
      await diff.getByText(text).first().waitFor();
    }
    await screenshot(page, 'org-project-versions');
    expect(await accessibilityViolations(page)).toEqual([]);

    await diff.getByRole('button', { name: 'Restore version 1…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('heading', { level: 1, name: 'api' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('api');
    expect(await page.getByLabel('Description').inputValue()).toBe('First');
    const restored = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}`, token);
    expect(restored.body).toMatchObject({
      name: 'api',
      description: 'First',
      extensions: ['acme.one'],
      forwardPorts: [3000],
      version: 3,
    });
    await page.getByText('restored from version 1').waitFor();
  });

  it('is deleted by an owner after a typed confirm; a member is refused in words', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const token = { token: owner.token };
    const created = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'old' }, token);
    const projectId: string = created.body.id;

    const member = await addMember(web.t, org, owner, 'member');
    const memberPage = await signedInPage(web, member);
    await memberPage.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await memberPage.getByRole('button', { name: 'Delete project…' }).click();
    await memberPage.getByLabel('Type “old” to confirm').fill('old');
    await memberPage.getByRole('button', { name: 'Delete project', exact: true }).click();
    await memberPage.getByRole('dialog').getByRole('alert').filter({ hasText: /role/i }).waitFor();

    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Delete project…' }).click();
    await page.getByLabel('Type “old” to confirm').fill('old');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Delete project', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    const gone = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}`, token);
    expect(gone.status).toBe(404);
  });
});
