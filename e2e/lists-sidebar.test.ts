import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createWorkspace,
  type TestWorkspace,
} from '../test/helpers/factories.js';

const web = useBrowserApp();

async function signedInPage(workspace: TestWorkspace, colorScheme: 'light' | 'dark' = 'light') {
  const page = await web.page({ colorScheme });
  await page
    .context()
    .addCookies([{ name: 'session', value: workspace.owner.token, url: web.url }]);
  return page;
}

async function listsInOrder(workspace: TestWorkspace) {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/collections`, {
    token: workspace.owner.token,
  });
  return (response.body as Array<{ name: string; groupId: string | null }>).map(
    (list) => `${list.name}${list.groupId === null ? '' : ' (grouped)'}`,
  );
}

/** The sidebar's lists and group headers, top to bottom. */
async function sidebar(page: Page): Promise<string[]> {
  return page
    .getByRole('navigation', { name: 'Lists' })
    .locator('li')
    .evaluateAll((items) => items.map((item) => item.querySelector('a, h3')?.textContent ?? ''));
}

/** A workspace with lists Alpha, Beta, Gamma and the group Team, open on Alpha. */
async function sidebarWithTeam() {
  const workspace = await createWorkspace(web.t);
  const alpha = await createCollection(web.t, workspace, { name: 'Alpha', keyPrefix: 'ALP' });
  await createCollection(web.t, workspace, { name: 'Beta', keyPrefix: 'BET' });
  await createCollection(web.t, workspace, { name: 'Gamma', keyPrefix: 'GAM' });
  const group = await web.t.http.post(
    `/workspaces/${workspace.id}/collection-groups`,
    { name: 'Team' },
    { token: workspace.owner.token },
  );
  expect(group.status).toBe(201);
  const page = await signedInPage(workspace);
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(new URL(request.url()).pathname);
  });
  await page.goto(`/app/${workspace.slug}/lists/${alpha.id}`);
  await page.getByRole('heading', { name: 'Alpha', level: 1 }).waitFor();
  return { workspace, page, puts };
}

describe('the lists sidebar', () => {
  it('shows groups and lists in order and reorders them by drag (one PUT)', async () => {
    const { page, workspace, puts } = await sidebarWithTeam();
    await expect.poll(() => sidebar(page)).toEqual(['Alpha', 'Beta', 'Gamma', 'Team']);
    await screenshot(page, 'lists-sidebar-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    // By mouse: Gamma's handle dragged above Alpha.
    const gamma = page.getByRole('button', { name: 'Move Gamma' });
    const alphaHandle = page.getByRole('button', { name: 'Move Alpha' });
    const from = await gamma.boundingBox();
    const to = await alphaHandle.boundingBox();
    if (from === null || to === null) throw new Error('the handles are not shown');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => sidebar(page)).toEqual(['Gamma', 'Alpha', 'Beta', 'Team']);
    await expect.poll(() => listsInOrder(workspace)).toEqual(['Gamma', 'Alpha', 'Beta']);
    expect(puts).toEqual([`/workspaces/${workspace.id}/collections/order`]);
  });

  it('moves a list into a group by keyboard only (Space, arrows, Space)', async () => {
    const { workspace, page, puts } = await sidebarWithTeam();
    await expect.poll(() => sidebar(page)).toEqual(['Alpha', 'Beta', 'Gamma', 'Team']);

    // By keyboard only: Beta's handle focused, picked up with Space, moved down past the
    // Team header into the group, dropped with Space.
    for (let presses = 0; presses < 30; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      if (focused === 'Move Beta') break;
    }
    expect(await page.evaluate(() => document.activeElement?.matches(':focus-visible'))).toBe(true);
    // Each step waits for what a screen reader hears.
    const heard = (text: string) => page.getByText(text).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await heard('Picked up Beta.');
    await page.keyboard.press('ArrowDown');
    await heard('Beta is over Gamma.');
    await page.keyboard.press('ArrowDown');
    await heard('Beta is over the group Team.');
    await page.keyboard.press('Space');
    await expect.poll(() => sidebar(page)).toEqual(['Alpha', 'Gamma', 'Team', 'Beta']);
    await expect.poll(() => listsInOrder(workspace)).toEqual(['Alpha', 'Gamma', 'Beta (grouped)']);
    expect(puts).toHaveLength(1);
  });

  it('creates a list, its prefix refusal next to the field', async () => {
    const workspace = await createWorkspace(web.t);
    await createCollection(web.t, workspace, { name: 'Existing', keyPrefix: 'ENG' });
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}`);
    const nav = page.getByRole('navigation', { name: 'Lists' });
    await nav.getByRole('link', { name: 'Existing' }).waitFor();

    await nav.getByRole('button', { name: '+ List' }).click();
    const dialog = page.getByRole('dialog', { name: 'New list' });
    await dialog.getByLabel('Name').fill('Engineering');
    expect(await dialog.getByLabel('Key prefix').inputValue()).toBe('ENG');
    await dialog.getByRole('button', { name: 'Create list' }).click();
    await dialog.getByText('Another list of this workspace uses this key prefix').waitFor();
    await screenshot(page, 'lists-create-refused-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByLabel('Key prefix').fill('ENGX');
    await dialog.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('heading', { name: 'Engineering', level: 1 }).waitFor();
  });

  it('creates, renames and deletes a group, renames and deletes a list', async () => {
    const workspace = await createWorkspace(web.t);
    await createCollection(web.t, workspace, { name: 'Existing', keyPrefix: 'ENG' });
    await createCollection(web.t, workspace, { name: 'Engineering', keyPrefix: 'ENGX' });
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}`);
    const nav = page.getByRole('navigation', { name: 'Lists' });
    await nav.getByRole('link', { name: 'Engineering' }).click();
    await page.getByRole('heading', { name: 'Engineering', level: 1 }).waitFor();

    await nav.getByRole('button', { name: '+ Group' }).click();
    await page.getByLabel('Group name').fill('Product');
    await page.getByRole('button', { name: 'Create group' }).click();
    await nav.getByRole('heading', { name: 'Product' }).waitFor();

    await nav.getByRole('button', { name: 'List Engineering actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('dialog', { name: 'Rename list' }).getByLabel('Name').fill('Platform');
    await page.getByRole('button', { name: 'Rename' }).click();
    await nav.getByRole('link', { name: 'Platform' }).waitFor();
    await page.getByRole('heading', { name: 'Platform', level: 1 }).waitFor();

    await nav.getByRole('button', { name: 'Group Product actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('dialog', { name: 'Rename group' }).getByLabel('Name').fill('Design');
    await page.getByRole('button', { name: 'Rename' }).click();
    await nav.getByRole('heading', { name: 'Design' }).waitFor();
    await screenshot(page, 'lists-sidebar-dark');

    await nav.getByRole('button', { name: 'List Platform actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete the list Platform?' }).waitFor();
    await page.getByRole('button', { name: 'Delete list' }).click();
    await page.waitForURL(`**/app/${workspace.slug}`);
    await expect.poll(() => sidebar(page)).toEqual(['Existing', 'Design']);

    await nav.getByRole('button', { name: 'Group Design actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete group' }).click();
    await expect.poll(() => sidebar(page)).toEqual(['Existing']);
  });
});
