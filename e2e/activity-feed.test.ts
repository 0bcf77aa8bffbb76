import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createItem,
  createUser,
  createWorkspace,
  insertItems,
  type TestUser,
} from '../test/helpers/factories.js';

const web = useBrowserApp();

/** A page signed in as `user` (the session cookie the sign-in screen would set). */
async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  return page;
}

/** A workspace with a card made by hand and a bulk edit of 30 cards (one batch). */
async function workspaceWithHistory() {
  const owner = await createUser(web.t, { name: 'Ada' });
  const workspace = await createWorkspace(web.t, owner);
  const roadmap = await createCollection(web.t, workspace, { name: 'Roadmap' });
  const card = await createItem(web.t, workspace, roadmap.id, { title: 'Ship it' });
  const backlog = await createCollection(web.t, workspace, { name: 'Backlog' });
  await insertItems(web.t, workspace, backlog.id, 30);
  const statuses = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
    token: owner.token,
  });
  const done = statuses.body.at(-1)?.id ?? '';
  const bulk = await web.t.http.post(
    `/workspaces/${workspace.id}/collections/${backlog.id}/bulk-update`,
    { definition: {}, patch: { statusId: done } },
    { token: owner.token },
  );
  expect(bulk.status).toBe(200);
  return { workspace, card, batchId: String(bulk.body.batchId) };
}

const rows = (page: Page) => page.getByRole('list', { name: 'Events' }).getByRole('listitem');

describe('the activity feed', () => {
  it('shows the log in words, newest first, a page at a time', async () => {
    const { workspace } = await workspaceWithHistory();
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/activity`);
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    // Newest first: the bulk edit's changes, then the card, the lists.
    await rows(page)
      .first()
      .getByText(/^Ada changed status of the card “Card \d+”/)
      .waitFor();
    expect(await rows(page).count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(36);
    await page.getByText('Ada created the list “Roadmap”').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await screenshot(page, 'activity-all');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('filters by type and cause in the address, kept on reload, undone by Back', async () => {
    const { workspace, card } = await workspaceWithHistory();
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/activity`);
    await rows(page).first().waitFor();

    await page.getByLabel('Type').selectOption('item.created');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('item.created');
    await expect.poll(() => rows(page).count()).toBe(1);
    const link = rows(page).getByRole('link', { name: '“Ship it”' });
    expect(await link.getAttribute('href')).toBe(`/app/${workspace.slug}/${card.key}`);

    await page.getByLabel('Cause').selectOption('import');
    await page.getByText('No event matches these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('cause')).toBe('import');

    // The filters live in the address: a reload keeps them, Back undoes the last.
    await page.reload();
    await page.getByText('No event matches these filters.').waitFor();
    expect(await page.getByLabel('Cause').inputValue()).toBe('import');
    await page.goBack();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByLabel('Type').inputValue()).toBe('item.created');
  });

  it('shows one batch from its link, and every batch again', async () => {
    const { workspace, batchId } = await workspaceWithHistory();
    const page = await signedIn(workspace.owner, 'dark');
    await page.goto(`/app/${workspace.slug}/activity?batch=${batchId}`);
    await page.getByText(`Batch ${batchId}`).waitFor();
    await expect.poll(() => rows(page).count()).toBe(25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(30);
    expect(await page.getByText('Ship it').count()).toBe(0);
    await screenshot(page, 'activity-batch-dark');

    await page.getByRole('button', { name: 'Show every batch' }).click();
    // Every batch again: the newest page is the bulk edit's, each event linking to its batch.
    await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBeNull();
    await page.getByText(`Batch ${batchId}`).waitFor({ state: 'detached' });
    // Each event of a batch links to it.
    await rows(page).first().getByRole('link', { name: 'Batch' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe(batchId);
  });
});
