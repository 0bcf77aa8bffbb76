import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createItem,
  createWorkspace,
  type TestUser,
} from '../test/helpers/factories.js';

const web = useBrowserApp();

/** A page of a new browser context, signed in as this person (their session cookie). */
async function signedIn(person: TestUser): Promise<Page> {
  const page = await web.page();
  await page.context().addCookies([{ name: 'session', value: person.token, url: web.url }]);
  return page;
}

describe('two browsers on the same list', () => {
  it('each sees the cards the other (or an API key) creates, edits and moves, without a reload', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Live');
    const teammate = await addMember(web.t, workspace, 'member', 'Ada');
    const list = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
    const first = await createItem(web.t, workspace, list.id, { title: 'First card' });

    const table = await signedIn(workspace.owner);
    await table.goto(`/app/${workspace.slug}/lists/${list.id}`);
    const grid = table.getByRole('grid', { name: 'Cards' });
    await grid.locator(`[data-card-key="${first.key}"]`).waitFor();

    const board = await signedIn(teammate);
    await board.goto(`/app/${workspace.slug}/lists/${list.id}?layout=board`);
    const region = board.getByRole('region', { name: 'Board' });
    await region.locator(`[data-card-key="${first.key}"]`).waitFor();

    // Made elsewhere (an API call as the owner): both screens show it.
    const second = await createItem(web.t, workspace, list.id, { title: 'Made elsewhere' });
    await grid.locator(`[data-card-key="${second.key}"]`).waitFor();
    await region.locator(`[data-card-key="${second.key}"]`).waitFor();

    // Renamed elsewhere: the new title replaces the old one on both.
    const renamed = await web.t.http.patch(
      `/workspaces/${workspace.id}/items/${second.id}`,
      { title: 'Renamed elsewhere' },
      { token: teammate.token },
    );
    expect(renamed.status).toBe(200);
    await grid.getByText('Renamed elsewhere').waitFor();
    await region.getByText('Renamed elsewhere').waitFor();

    // Moved to another status elsewhere: the board shows it in that column.
    const statuses = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
      token: workspace.owner.token,
    });
    const last = statuses.body.at(-1) as { id: string; name: string };
    const moved = await web.t.http.patch(
      `/workspaces/${workspace.id}/items/${first.id}`,
      { statusId: last.id },
      { token: workspace.owner.token },
    );
    expect(moved.status).toBe(200);
    await region
      .getByRole('region', { name: last.name })
      .or(region.locator(`section[aria-label^="${last.name}"]`))
      .locator(`[data-card-key="${first.key}"]`)
      .waitFor();
    await screenshot(table, 'live-table');
    await screenshot(board, 'live-board');
    expect(await accessibilityViolations(table)).toEqual([]);
    expect(await accessibilityViolations(board)).toEqual([]);
  });
});
