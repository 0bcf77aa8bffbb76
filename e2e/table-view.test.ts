import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createField,
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

const rowCount = (page: Page) => page.locator('[role="grid"] [data-card-key]').count();

describe('the table of a list', () => {
  it('shows cells by type, loads the next keyset page on scroll, and opens a card on click', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Backlog', keyPrefix: 'BL' });
    const size = await createField(web.t, workspace, {
      key: 'size',
      name: 'Size',
      type: 'select',
      config: { options: [{ label: 'Large', color: '#dc2626' }] },
    });
    const estimate = await createField(web.t, workspace, {
      key: 'estimate',
      name: 'Estimate',
      type: 'number',
    });
    await web.t.http.patch(
      `/workspaces/${workspace.id}/collections/${list.id}`,
      { fieldIds: [size.id, estimate.id] },
      { token: workspace.owner.token },
    );
    const large = size.config.options?.[0]?.id;
    await insertItems(web.t, workspace, list.id, 450, (index) =>
      index === 0 ? { size: large, estimate: 1234.5 } : {},
    );
    const page = await signedInPage(workspace);
    const queries: Array<{ cursor?: string }> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/query')) queries.push(request.postDataJSON());
    });
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    const grid = page.getByRole('grid', { name: 'Cards' });
    const first = grid.locator('[data-card-key="BL-1"]');
    await first.waitFor();
    expect(await first.getByRole('gridcell').allInnerTexts()).toEqual([
      'BL-1',
      'Card 0',
      'Todo',
      'Large',
      '1,234.5',
    ]);
    await page.getByText('200 cards loaded; more as you scroll').waitFor();
    // Only the rows in sight are in the page.
    expect(await rowCount(page)).toBeLessThan(60);
    // axe runs on the table in the next test (dark); this one only looks (light).
    await screenshot(page, 'table-light');

    await grid.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.getByText('400 cards loaded; more as you scroll').waitFor();
    expect(queries.length).toBeGreaterThanOrEqual(2);
    expect(queries[1]?.cursor).toEqual(expect.any(String));
    await grid.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await page.getByText('450 cards', { exact: true }).waitFor();
    // The last page made the table longer: to its end again.
    await grid.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await grid.locator('[data-card-key="BL-450"]').waitFor();

    await grid.evaluate((element) => {
      element.scrollTop = 0;
    });
    await first.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('card')).toBe('BL-1');
    await page.getByRole('complementary', { name: 'Card BL-1' }).waitFor();
  });

  it('creates cards inline and opens one with the keyboard only', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Inbox', keyPrefix: 'IN' });
    await createItem(web.t, workspace, list.id, { title: 'Already here' });
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.locator('[data-card-key="IN-1"]').waitFor();

    // Tab from the top of the page to the new-card field.
    for (let presses = 0; presses < 40; presses += 1) {
      if (await page.evaluate(() => document.activeElement?.id === 'new-card-title')) break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-card-title');
    await page.keyboard.type('Write the launch post');
    await page.keyboard.press('Enter');
    await page.getByText('Created IN-2').waitFor();
    // Ready for the next one.
    expect(await page.getByLabel('New card title').inputValue()).toBe('');
    await page.keyboard.type('Review it');
    await page.keyboard.press('Enter');
    await page.getByText('Created IN-3').waitFor();
    await page.locator('[data-card-key="IN-3"]').waitFor();
    await screenshot(page, 'table-inline-create-dark');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Tab on to the grid's rows (past the link to the created card), then arrows and Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-card-key'))).toBe(
      'IN-1',
    );
    expect(await page.evaluate(() => document.activeElement?.matches(':focus-visible'))).toBe(true);
    // One row at a time: the live refresh of the created cards may re-render the rows between keys.
    const focusedKey = () =>
      page.evaluate(() => document.activeElement?.getAttribute('data-card-key'));
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedKey).toBe('IN-2');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedKey).toBe('IN-3');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('card')).toBe('IN-3');
  });
});
