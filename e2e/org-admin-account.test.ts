import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

describe('the account page', () => {
  it('sets and clears the dotfiles repository, and keeps secrets write-only', async () => {
    const person = await createUser(web.t, { name: 'Ada' });
    const auth = { token: person.token };
    const page = await signedInPage(web, person);
    await page.goto('/app/account');
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();

    // Dotfiles: set, then cleared by saving an empty field (the PATCH rule).
    const dotfiles = page.getByRole('region', { name: 'Dotfiles' });
    await dotfiles.getByLabel('Dotfiles repository').fill('not a url');
    await dotfiles.getByRole('button', { name: 'Save dotfiles' }).click();
    await expect
      .poll(() => dotfiles.getByLabel('Dotfiles repository').getAttribute('aria-invalid'), {
        timeout: 10_000,
      })
      .toBe('true');
    await dotfiles.getByLabel('Dotfiles repository').fill('https://example.com/ada/dotfiles.git');
    await dotfiles.getByRole('button', { name: 'Save dotfiles' }).click();
    await dotfiles.getByText('https://example.com/ada/dotfiles.git', { exact: true }).waitFor();
    expect((await web.t.api.get('/users/me', auth)).body.dotfilesRepo).toBe(
      'https://example.com/ada/dotfiles.git',
    );
    await dotfiles.getByLabel('Dotfiles repository').fill('');
    await dotfiles.getByRole('button', { name: 'Save dotfiles' }).click();
    await dotfiles.getByText('Now: none').waitFor();
    expect((await web.t.api.get('/users/me', auth)).body.dotfilesRepo).toBeNull();

    // Secrets: added, replaced, deleted; the value is never in the page.
    const secrets = page.getByRole('region', { name: 'Secrets' });
    const first = 'first-value-4f1c9a';
    const second = 'second-value-8d2e7b';
    await secrets.getByLabel('Secret name').fill('GITHUB_TOKEN');
    await secrets.getByLabel('Secret value').fill(first);
    await secrets.getByRole('button', { name: 'Add secret' }).click();
    await secrets.getByRole('listitem', { name: 'GITHUB_TOKEN' }).waitFor();
    expect(await secrets.getByLabel('Secret value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(first);
    const listed = await web.t.api.get('/users/me/secrets', auth);
    expect(listed.body.map((secret: { name: string }) => secret.name)).toEqual(['GITHUB_TOKEN']);
    await screenshot(page, 'org-admin-account');
    expect(await accessibilityViolations(page)).toEqual([]);

    await secrets.getByLabel('Secret name').fill('GITHUB_TOKEN');
    await secrets.getByLabel('Secret value').fill(second);
    await secrets.getByRole('button', { name: 'Replace secret' }).click();
    await secrets.getByText('GITHUB_TOKEN is saved.').waitFor();
    const replaced = await web.t.api.get('/users/me/secrets', auth);
    expect(replaced.body).toHaveLength(1);
    expect(replaced.body[0]?.id).toBe(listed.body[0]?.id);
    await page.reload();
    await page.getByRole('listitem', { name: 'GITHUB_TOKEN' }).waitFor();
    const html = await page.content();
    expect(html).not.toContain(first);
    expect(html).not.toContain(second);

    await page.getByRole('button', { name: 'Delete GITHUB_TOKEN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete GITHUB_TOKEN?' });
    await dialog.getByRole('button', { name: 'Delete secret' }).click();
    await page.getByText('No secret yet.').waitFor();
    expect((await web.t.api.get('/users/me/secrets', auth)).body).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('sets the editor extensions as a list, refuses a bad id in words and removes them all', async () => {
    const person = await createUser(web.t, { name: 'Linus' });
    const auth = { token: person.token };
    const page = await signedInPage(web, person);
    await page.goto('/app/account');
    const extensions = page.getByRole('region', { name: 'Editor extensions' });
    await extensions.getByText('No extension.').waitFor();
    const save = extensions.getByRole('button', { name: 'Save extensions' });
    expect(await save.isDisabled()).toBe(true);

    await extensions.getByRole('button', { name: 'Add extension' }).click();
    await extensions.getByLabel('Extension 1', { exact: true }).fill('esbenp.prettier-vscode');
    await extensions.getByRole('button', { name: 'Add extension' }).click();
    await extensions.getByLabel('Extension 2', { exact: true }).fill('no-dot');
    await save.click();
    const list = extensions.getByRole('group', { name: /Extensions/ });
    await expect.poll(() => list.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    expect((await web.t.api.get('/users/me', auth)).body.extensions).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);

    await extensions
      .getByLabel('Extension 2', { exact: true })
      .fill('dbaeumer.vscode-eslint@3.0.10');
    await save.click();
    await extensions.getByRole('status').getByText('Saved.').waitFor();
    expect((await web.t.api.get('/users/me', auth)).body.extensions).toEqual([
      'esbenp.prettier-vscode',
      'dbaeumer.vscode-eslint@3.0.10',
    ]);
    await page.reload();
    expect(await extensions.getByLabel('Extension 2', { exact: true }).inputValue()).toBe(
      'dbaeumer.vscode-eslint@3.0.10',
    );

    await extensions.getByRole('button', { name: 'Remove Extension 2' }).click();
    await extensions.getByRole('button', { name: 'Remove Extension 1' }).click();
    await save.click();
    await extensions.getByRole('status').getByText('Saved.').waitFor();
    expect((await web.t.api.get('/users/me', auth)).body.extensions).toEqual([]);
  });
});
