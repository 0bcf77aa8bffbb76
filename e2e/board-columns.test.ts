import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createItem,
  createWorkspace,
  insertItems,
  type TestWorkspace,
} from '../test/helpers/factories.js';
import { column } from './board-helpers.js';

const web = useBrowserApp();

async function statusIds(workspace: TestWorkspace): Promise<Record<string, string>> {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
    token: workspace.owner.token,
  });
  const statuses: Array<{ id: string; name: string }> = response.body;
  return Object.fromEntries(statuses.map((status) => [status.name, status.id]));
}

async function signedInPage(workspace: TestWorkspace, colorScheme: 'light' | 'dark' = 'light') {
  const page = await web.page({ colorScheme });
  await page
    .context()
    .addCookies([{ name: 'session', value: workspace.owner.token, url: web.url }]);
  return page;
}

async function countOf(page: Page, name: string): Promise<string | null> {
  return column(page, name).locator('[data-column-count]').first().textContent();
}

describe('the board of a list', () => {
  it('shows a column per status with its count, empty ones too', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
    const ids = await statusIds(workspace);
    const first = await createItem(web.t, workspace, list.id, { title: 'Write the brief' });
    await createItem(web.t, workspace, list.id, { title: 'Draw the plan' });
    await createItem(web.t, workspace, list.id, { title: 'Ship it', statusId: ids.Done });

    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    await page.locator(`[data-card-key="${first.key}"]`).waitFor();
    const names = await page
      .getByRole('region', { name: 'Board' })
      .locator('section[aria-label]')
      .evaluateAll((sections) => sections.map((section) => section.getAttribute('aria-label')));
    expect(names).toEqual(['Todo', 'In Progress', 'Done']);
    await expect.poll(() => countOf(page, 'Todo')).toBe('2 cards');
    expect(await countOf(page, 'In Progress')).toBe('0 cards');
    expect(await countOf(page, 'Done')).toBe('1 card');
    await column(page, 'In Progress').getByText('No cards').waitFor();
    const todo = await column(page, 'Todo').locator('[data-card-key]').allTextContents();
    expect(todo).toEqual([`${first.key}Write the brief`, expect.stringContaining('Draw the plan')]);
    await screenshot(page, 'board-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('reads in the dark scheme too, and opens a card by click or Enter', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
    const card = await createItem(web.t, workspace, list.id, { title: 'Write the brief' });
    const dark = await signedInPage(workspace, 'dark');
    await dark.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    await dark.locator(`[data-card-key="${card.key}"]`).waitFor();
    await screenshot(dark, 'board-dark');
    expect(await accessibilityViolations(dark)).toEqual([]);

    // Click, or Enter on the focused card, opens it in the panel (its key in the address).
    await dark.locator(`[data-card-key="${card.key}"]`).click();
    await expect.poll(() => new URL(dark.url()).searchParams.get('card')).toBe(card.key);
    await dark.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    await dark.locator(`[data-card-key="${card.key}"]`).focus();
    await dark.keyboard.press('Enter');
    await expect.poll(() => new URL(dark.url()).searchParams.get('card')).toBe(card.key);
  });

  it('creates a card inline at the top or the bottom of a column, with its status', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
    const ids = await statusIds(workspace);
    await createItem(web.t, workspace, list.id, { title: 'Already there' });
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    await column(page, 'Todo').getByText('Already there').waitFor();

    await page.getByRole('button', { name: 'Add a card at the top of In Progress' }).click();
    const title = page.getByLabel('New card in In Progress');
    await title.fill('Started right away');
    await screenshot(page, 'board-composer');
    expect(await accessibilityViolations(page)).toEqual([]);
    await title.press('Enter');
    await column(page, 'In Progress').getByText('Started right away').waitFor();
    await expect.poll(() => countOf(page, 'In Progress')).toBe('1 card');
    // The composer stays open, emptied, for the next card; Escape closes it.
    expect(await title.inputValue()).toBe('');
    await title.press('Escape');
    await title.waitFor({ state: 'detached' });

    await column(page, 'Todo').getByRole('button', { name: 'Add a card to Todo' }).click();
    await page.getByLabel('New card in Todo').fill('At the end');
    await page.getByRole('button', { name: 'Create' }).click();
    await column(page, 'Todo').getByText('At the end').waitFor();
    const todo = await column(page, 'Todo').locator('[data-card-key]').allTextContents();
    expect(todo.map((text) => text.replace(/^L\d+-\d+/, ''))).toEqual([
      'Already there',
      'At the end',
    ]);

    const query = await web.t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/query`,
      { definition: {} },
      { token: workspace.owner.token },
    );
    const created: Array<{ title: string; statusId: string }> = query.body.items;
    expect(created.find((item) => item.title === 'Started right away')?.statusId).toBe(
      ids['In Progress'],
    );
    expect(created.find((item) => item.title === 'At the end')?.statusId).toBe(ids.Todo);
  });

  it('loads more cards of a long column as it scrolls', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Backlog' });
    await insertItems(web.t, workspace, list.id, 130);
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    const todo = column(page, 'Todo');
    await todo.getByText('Card 0', { exact: true }).waitFor();
    await expect.poll(() => countOf(page, 'Todo')).toBe('130 cards');
    // The first page is small, and only the cards in sight are in the page.
    expect(await todo.locator('[data-card-key]').count()).toBeLessThanOrEqual(20);
    const scroller = todo.getByRole('list', { name: 'Cards in Todo' }).locator('..');
    await expect
      .poll(
        async () => {
          await scroller.evaluate((element) => {
            element.scrollTop = element.scrollHeight;
          });
          return todo.getByText('Card 129', { exact: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await todo.locator('[data-card-key]').count()).toBeLessThan(40);
    await screenshot(page, 'board-long-column');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
