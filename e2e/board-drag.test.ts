import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../test/helpers/factories.js';
import { column, dragWithMouse, eventually, moveByKeyboard } from './board-helpers.js';

const web = useBrowserApp();

async function statusIds(workspace: TestWorkspace): Promise<Record<string, string>> {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
    token: workspace.owner.token,
  });
  const statuses: Array<{ id: string; name: string }> = response.body;
  return Object.fromEntries(statuses.map((status) => [status.name, status.id]));
}

/** The list's cards in the API's order (manual order, no sort), as `title:status name`. */
async function cardsThroughApi(workspace: TestWorkspace, listId: string): Promise<string[]> {
  const names = Object.fromEntries(
    Object.entries(await statusIds(workspace)).map(([name, id]) => [id, name]),
  );
  const response = await web.t.http.post(
    `/workspaces/${workspace.id}/collections/${listId}/query`,
    { definition: {} },
    { token: workspace.owner.token },
  );
  const items: Array<{ title: string; statusId: string }> = response.body.items;
  return items.map((item) => `${item.title}:${names[item.statusId] ?? '?'}`);
}

async function titlesIn(page: Page, name: string): Promise<string[]> {
  const texts = await column(page, name).locator('[data-card-key]').allTextContents();
  return texts.map((text) => text.replace(/^L\d+-\d+/, ''));
}

async function boardOf(titles: string[]) {
  const workspace = await createWorkspace(web.t);
  const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
  for (const title of titles) await createItem(web.t, workspace, list.id, { title });
  const page = await web.page();
  await page
    .context()
    .addCookies([{ name: 'session', value: workspace.owner.token, url: web.url }]);
  await page.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
  await column(page, 'Todo')
    .getByText(titles.at(-1) ?? '')
    .waitFor();
  return { workspace, list, page };
}

describe('dragging cards on the board', () => {
  it('moves a card to another column by mouse', async () => {
    const { workspace, list, page } = await boardOf(['Alpha', 'Bravo']);

    // By mouse, into the empty column.
    await dragWithMouse(page, column(page, 'Todo').getByText('Alpha'), column(page, 'In Progress'));
    await column(page, 'In Progress').getByText('Alpha').waitFor();
    await expect
      .poll(() => cardsThroughApi(workspace, list.id), eventually)
      .toContain('Alpha:In Progress');
    await expect
      .poll(
        () => column(page, 'In Progress').locator('[data-column-count]').textContent(),
        eventually,
      )
      .toBe('1 card');
    expect(await column(page, 'Todo').locator('[data-column-count]').textContent()).toBe('1 card');
  });

  it('moves a card to another column by keyboard only', async () => {
    const { workspace, list, page } = await boardOf(['Alpha', 'Bravo']);

    // By keyboard only, a column right.
    const bravo = column(page, 'Todo').locator('[data-card-key]', { hasText: 'Bravo' });
    await moveByKeyboard(page, bravo, 'ArrowRight', column(page, 'In Progress'));
    await column(page, 'In Progress').getByText('Bravo').waitFor();
    await expect
      .poll(() => cardsThroughApi(workspace, list.id), eventually)
      .toContain('Bravo:In Progress');
  });

  it('reorders cards within a column by mouse and by keyboard', async () => {
    const { workspace, list, page } = await boardOf(['Charlie', 'Delta', 'Echo']);

    // Within a column: Echo above Charlie, by mouse; the order holds through the API.
    await expect.poll(() => titlesIn(page, 'Todo')).toEqual(['Charlie', 'Delta', 'Echo']);
    await dragWithMouse(
      page,
      column(page, 'Todo').getByText('Echo'),
      column(page, 'Todo').locator('[data-card-key]', { hasText: 'Charlie' }),
      -10,
    );
    await expect
      .poll(() => titlesIn(page, 'Todo'), eventually)
      .toEqual(['Echo', 'Charlie', 'Delta']);
    await expect
      .poll(
        async () =>
          (await cardsThroughApi(workspace, list.id)).filter((card) => card.endsWith(':Todo')),
        eventually,
      )
      .toEqual(['Echo:Todo', 'Charlie:Todo', 'Delta:Todo']);

    // And by keyboard: Delta up one place.
    const delta = column(page, 'Todo').locator('[data-card-key]', { hasText: 'Delta' });
    await delta.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => delta.getAttribute('aria-pressed')).toBe('true');
    await page.getByText(/ is over Todo, place 3 of 3\.$/).waitFor();
    await page.keyboard.press('ArrowUp');
    // Dropped once the board says where it would land (every card of a lifted column has a
    // transform, so Charlie's made room proves nothing).
    await page.getByText(/ is over Todo, place 2 of 3\.$/).waitFor();
    await page.keyboard.press('Space');
    await expect
      .poll(
        async () =>
          (await cardsThroughApi(workspace, list.id)).filter((card) => card.endsWith(':Todo')),
        eventually,
      )
      .toEqual(['Echo:Todo', 'Delta:Todo', 'Charlie:Todo']);
    expect(await titlesIn(page, 'Todo')).toEqual(['Echo', 'Delta', 'Charlie']);
    await screenshot(page, 'board-after-drags');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('puts a refused move back and says why', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
    const card = await createItem(web.t, workspace, list.id, { title: 'Fragile' });
    const member = await addMember(web.t, workspace, 'member', 'Grace');
    const page = await web.page();
    await page.context().addCookies([{ name: 'session', value: member.token, url: web.url }]);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    await column(page, 'Done').getByText('No cards').waitFor();

    // The person is removed from the workspace while the board is open (a removal is not an
    // event the board hears, unlike a status deleted, whose column would go at once).
    const removed = await web.t.http.delete(
      `/workspaces/${workspace.id}/members/${member.user.id}`,
      { token: workspace.owner.token },
    );
    expect(removed.status).toBe(204);
    await dragWithMouse(page, page.locator(`[data-card-key="${card.key}"]`), column(page, 'Done'));
    const alert = page.getByRole('alert').filter({ hasText: 'could not move' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(new RegExp(`^${card.key} could not move to Done: `));
    await column(page, 'Todo').getByText('Fragile').waitFor();
    expect(await cardsThroughApi(workspace, list.id)).toEqual(['Fragile:Todo']);
    await screenshot(page, 'board-refused');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
