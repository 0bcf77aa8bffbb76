import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createItem,
  createUser,
  createWorkspace,
} from '../test/helpers/factories.js';
import { signInAs } from './workspace-session.js';

const web = useBrowserApp();

describe('the workspace overview and switcher', () => {
  it('reads well for an empty workspace', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Launch plans');
    const page = await web.page();
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Launch plans' }).waitFor();
    await page
      .getByRole('region', { name: 'Cards by list' })
      .getByText(/^No lists yet\./)
      .waitFor();
    await page.getByText('No cards yet').waitFor();
    // The three default statuses' creation; the chart's title says it too, for readers.
    await page.locator('p', { hasText: '3 events in the last 14 days' }).waitFor();
    await screenshot(page, 'overview-empty');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('counts cards per category and per list, with the activity as a chart and a table', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Launch plans');
    const page = await web.page();
    await signInAs(page, web.url, owner);
    const roadmap = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
    await createCollection(web.t, workspace, { name: 'Bugs', keyPrefix: 'BUG' });
    for (const title of ['One', 'Two', 'Three'])
      await createItem(web.t, workspace, roadmap.id, { title });
    await page.goto(`/app/${workspace.slug}`);
    const roadmapLink = page
      .getByRole('region', { name: 'Cards by list' })
      .getByRole('link', { name: /Roadmap/ });
    await roadmapLink.waitFor();
    expect(await roadmapLink.textContent()).toContain('3');
    // The default status of a new card is in the "unstarted" category... or the first one: some category holds 3.
    const cardsByStatus = page.getByRole('region', { name: 'Cards by status' });
    expect(await cardsByStatus.textContent()).toContain('3');
    const chart = page.getByRole('img', { name: /Events per day over the last 14 days/ });
    expect(await chart.getAttribute('aria-labelledby')).toBeTruthy();
    await page.getByText('Show the numbers').click();
    const table = page.getByRole('table', { name: 'Events per day, oldest first' });
    expect(await table.getByRole('row').count()).toBe(15);
    const catalog = page.getByRole('region', { name: 'Catalog' });
    expect(await catalog.textContent()).toMatch(/Lists2/);
    await screenshot(page, 'overview-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows the overview in the dark scheme', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Launch plans');
    const roadmap = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
    await createItem(web.t, workspace, roadmap.id, { title: 'One' });
    const dark = await web.page({ colorScheme: 'dark' });
    await signInAs(dark, web.url, owner);
    await dark.goto(`/app/${workspace.slug}`);
    await dark
      .getByRole('region', { name: 'Cards by list' })
      .getByRole('link', { name: /Roadmap/ })
      .waitFor();
    await screenshot(dark, 'overview-dark');
    expect(await accessibilityViolations(dark)).toEqual([]);
  });

  it('switches workspaces from the sidebar, and reaches the list and the create form', async () => {
    const owner = await createUser(web.t, { name: 'Grace' });
    const first = await createWorkspace(web.t, owner, 'First');
    const second = await createWorkspace(web.t, owner, 'Second');
    const elsewhere = await createWorkspace(web.t, undefined, 'Not mine');
    const page = await web.page();
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${first.slug}`);
    await page.getByRole('heading', { level: 1, name: 'First' }).waitFor();

    // By keyboard: focus the switcher, open it, the current workspace is checked.
    await page.getByRole('button', { name: /switch workspace/ }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(
      await menu.getByRole('menuitemcheckbox', { name: 'First' }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(
      await menu.getByRole('menuitemcheckbox', { name: 'Second' }).getAttribute('aria-checked'),
    ).toBe('false');
    expect(await menu.getByRole('menuitemcheckbox', { name: 'Not mine' }).count()).toBe(0);
    await screenshot(page, 'switcher-open');
    expect(await accessibilityViolations(page)).toEqual([]);
    await menu.getByRole('menuitemcheckbox', { name: 'Second' }).click();
    await page.getByRole('heading', { level: 1, name: 'Second' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/${second.slug}`);

    await page.getByRole('button', { name: /switch workspace/ }).click();
    await page.getByRole('menuitem', { name: 'All workspaces' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');

    await page.goto(`/app/${first.slug}`);
    await page.getByRole('button', { name: /switch workspace/ }).click();
    await page.getByRole('menuitem', { name: 'Create a workspace' }).click();
    await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('name');
    expect(elsewhere.slug).not.toBe(first.slug);
  });

  it('shows a viewer the overview and the general settings read-only, with the reason', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Shared');
    const viewer = await addMember(web.t, workspace, 'viewer', 'Vera');
    const page = await web.page();
    await signInAs(page, web.url, viewer);
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Shared' }).waitFor();
    await page.goto(`/app/${workspace.slug}/settings`);
    await page.getByText('Read-only: your role is viewer').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('radio', { name: /Banner/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete workspace…' }).isDisabled()).toBe(true);
    await page.getByText('Only an owner can delete the workspace; your role is viewer.').waitFor();
    await screenshot(page, 'general-viewer');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('renames, changes the cover layout, refuses an empty name in words, deletes by typing the slug', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Old name');
    const page = await web.page({ colorScheme: 'dark' });
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings`);
    const name = page.getByLabel('Name', { exact: true });
    await name.waitFor();
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The name cannot be blank.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.inputValue()).toBe('   ');
    await screenshot(page, 'general-refused-dark');

    await name.fill('New name');
    await page.getByRole('radio', { name: /Banner/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: /New name.*switch workspace/ }).waitFor();
    const stored = await web.t.http.get(`/workspaces/${workspace.id}`, { token: owner.token });
    expect(stored.body).toMatchObject({ name: 'New name', coverLayout: 'banner' });
    await screenshot(page, 'general-saved-dark');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Delete workspace…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete workspace' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type “${workspace.slug}” to confirm`).fill(workspace.slug);
    await screenshot(page, 'general-delete-dialog-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirm.click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect(await page.getByRole('link', { name: /New name/ }).count()).toBe(0);
    const gone = await web.t.http.get(`/workspaces/${workspace.id}`, { token: owner.token });
    expect(gone.status).toBe(404);
  });
});
