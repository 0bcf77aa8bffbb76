import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  allEvents,
  createCollection,
  createItem,
  createWorkspace,
  insertItems,
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

describe('bulk edit from a view', () => {
  it('confirms above 200 by the count, explains a changed selection and retries, links the batch', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Tickets', keyPrefix: 'TK' });
    await insertItems(web.t, workspace, list.id, 250);
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.getByRole('button', { name: 'Edit all 250 matching' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit all matching cards' });
    await dialog.getByLabel('Change').selectOption({ label: 'Status' });
    await dialog.getByLabel('To').selectOption({ label: 'Done' });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('This changes 250 cards.').waitFor();
    const apply = dialog.getByRole('button', { name: 'Apply to 250 cards' });
    expect(await apply.isDisabled()).toBe(true);
    await dialog.getByLabel('Type 250 to confirm').fill('250');
    expect(await apply.isDisabled()).toBe(false);
    await screenshot(page, 'bulk-confirm-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Someone adds a card between the preview and the update: the selection is 251 now.
    await createItem(web.t, workspace, list.id, { title: 'Late arrival' });
    await apply.click();
    await dialog
      .getByText('The selection changed since the preview: 251 cards match now, not 250.', {
        exact: false,
      })
      .waitFor();
    await screenshot(page, 'bulk-stale-light');
    expect((await allEvents(web.t, workspace, { type: 'item.updated' })).length).toBe(0);
    const retry = dialog.getByRole('button', { name: 'Retry to 251 cards' });
    expect(await retry.isDisabled()).toBe(true);
    await dialog.getByLabel('Type 251 to confirm').fill('251');
    await retry.click();
    await dialog.getByText('Changed 251 cards.').waitFor();
    const link = dialog.getByRole('link', { name: 'See this change in the activity' });
    const href = (await link.getAttribute('href')) ?? '';
    const batchId = new URL(href, web.url).searchParams.get('batch') ?? '';
    expect(new URL(href, web.url).pathname).toBe(`/app/${workspace.slug}/activity`);
    const batch = await allEvents(web.t, workspace, { batchId });
    expect(batch).toHaveLength(251);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-card-key="TK-1"]').getByText('Done').waitFor();
  });

  it('refuses above 5,000 cards in words, before anything is sent', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Archive', keyPrefix: 'AR' });
    await insertItems(web.t, workspace, list.id, 5001);
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.getByRole('button', { name: 'Edit all 5,001 matching' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit all matching cards' });
    await dialog.getByLabel('Change').selectOption({ label: 'Archive' });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog
      .getByText(
        '5,001 cards match. A bulk edit changes at most 5,000 cards at once: narrow the filter first.',
      )
      .waitFor();
    expect(await dialog.getByRole('button', { name: /^Apply/ }).count()).toBe(0);
    await screenshot(page, 'bulk-too-many-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
