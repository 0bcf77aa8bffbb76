import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  selectOptions,
  type TestWorkspace,
} from '../test/helpers/factories.js';
import { signInAs } from './workspace-session.js';

const web = useBrowserApp();

async function signedInPage(workspace: TestWorkspace) {
  const page = await web.page({ colorScheme: 'light' });
  await signInAs(page, web.url, workspace.owner);
  return page;
}

async function statusIds(workspace: TestWorkspace): Promise<Record<string, string>> {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
    token: workspace.owner.token,
  });
  const statuses: Array<{ id: string; name: string }> = response.body;
  return Object.fromEntries(statuses.map((status) => [status.name, status.id]));
}

async function views(workspace: TestWorkspace, listId: string) {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/collections/${listId}/views`, {
    token: workspace.owner.token,
  });
  return response.body as Array<{ name: string; definition: Record<string, unknown> }>;
}

/** Four cards: two Todo cards match "title contains Alpha or size is Large", one does not, one is Done. */
async function roadmap() {
  const workspace = await createWorkspace(web.t);
  const list = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
  const size = await createField(web.t, workspace, {
    key: 'size',
    type: 'select',
    name: 'Size',
    config: selectOptions('Small', 'Large'),
  });
  const [small, large] = (size.config.options ?? []).map((option) => option.id);
  const status = await statusIds(workspace);
  const card = (title: string, sizeId: string | undefined, statusId = status.Todo) =>
    createItem(web.t, workspace, list.id, { title, statusId, properties: { size: sizeId } });
  await card('Alpha launch', small);
  await card('Beta launch', large);
  await card('Beta docs', small);
  await card('Alpha retro', large, status.Done);
  const created = await web.t.http.post(
    `/workspaces/${workspace.id}/collections/${list.id}/views`,
    { name: 'Everything', definition: {} },
    { token: workspace.owner.token },
  );
  expect(created.status).toBe(201);
  return { workspace, list, size, large, status };
}

function shownKeys(page: Page) {
  return page
    .locator('[data-card-key]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-card-key')).sort());
}

function focusedName(page: Page) {
  return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
}

describe('filter groups in the view editor', () => {
  it('builds status AND (title OR size) with the keyboard, saves it and shows it again', async () => {
    const { workspace, list, size, large, status } = await roadmap();
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.locator('[data-card-key="RM-4"]').waitFor();
    await page.getByRole('button', { name: 'Filter and sort' }).click();

    // Status is Todo.
    await page.getByRole('button', { name: '+ Add condition' }).press('Enter');
    await expect.poll(() => focusedName(page)).toBe('Field of condition 1');
    await page
      .getByLabel('Field of condition 1', { exact: true })
      .selectOption({ label: 'Status' });
    await page
      .getByRole('group', { name: 'Value of condition 1', exact: true })
      .getByRole('checkbox', { name: 'Todo' })
      .press('Space');
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1', 'RM-2', 'RM-3']);

    // A group, joined by "any" against the top level's "all": title contains Alpha…
    await page.getByRole('button', { name: '+ Add group' }).press('Enter');
    const group = page.getByRole('group', { name: 'Group 1', exact: true });
    await group.waitFor();
    await expect.poll(() => focusedName(page)).toBe('Field of condition 1 of group 1');
    expect(await group.getByLabel('Join of group 1').inputValue()).toBe('or');
    // Tab past the operator ("contains") to the value, and type.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Value of condition 1 of group 1');
    await page.keyboard.type('Alpha');
    expect(await page.getByLabel('Value of condition 1 of group 1').inputValue()).toBe('Alpha');
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1']);

    // …or size is Large.
    await group.getByRole('button', { name: 'Add condition to group 1' }).press('Enter');
    await expect.poll(() => focusedName(page)).toBe('Field of condition 2 of group 1');
    await page.getByLabel('Field of condition 2 of group 1').selectOption({ label: 'Size' });
    await group
      .getByRole('group', { name: 'Value of condition 2 of group 1' })
      .getByRole('checkbox', { name: 'Large' })
      .press('Space');
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1', 'RM-2']);
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await screenshot(page, 'filter-groups-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save view' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Unsaved changes' }).count()).toBe(0);
    const [saved] = await views(workspace, list.id);
    expect(saved?.definition).toEqual({
      filter: {
        and: [
          { attribute: 'statusId', op: 'in', value: [status.Todo] },
          {
            or: [
              { attribute: 'title', op: 'contains', value: 'Alpha' },
              { fieldId: size.id, op: 'in', value: [large] },
            ],
          },
        ],
      },
    });

    // After a reload the saved view shows its group again, and its cards.
    await page.reload();
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1', 'RM-2']);
    await page.getByRole('button', { name: 'Filter and sort (3)' }).click();
    const shown = page.getByRole('group', { name: 'Group 1', exact: true });
    expect(await shown.getByLabel('Join of group 1').inputValue()).toBe('or');
    expect(await shown.getByLabel('Value of condition 1 of group 1').inputValue()).toBe('Alpha');
    expect(
      await shown
        .getByRole('group', { name: 'Value of condition 2 of group 1' })
        .getByRole('checkbox', { name: 'Large' })
        .isChecked(),
    ).toBe(true);
    expect(await page.getByText('has more than the editor shows').count()).toBe(0);

    // Removing the group (keyboard) leaves focus on "+ Add group" and the status condition alone.
    await shown.getByRole('button', { name: 'Remove group 1' }).press('Enter');
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1', 'RM-2', 'RM-3']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('+ Add group');
    expect(await page.getByRole('group', { name: 'Group 1', exact: true }).count()).toBe(0);
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
  });

  it('keeps a filter nested deeper than the editor shows as saved, with a notice', async () => {
    const { workspace, list, size, large } = await roadmap();
    const deep = {
      filter: {
        and: [
          {
            or: [
              { attribute: 'title', op: 'contains', value: 'Alpha' },
              {
                and: [
                  { fieldId: size.id, op: 'in', value: [large] },
                  { attribute: 'title', op: 'contains', value: 'launch' },
                ],
              },
            ],
          },
        ],
      },
    };
    const created = await web.t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      { name: 'Deep', definition: deep },
      { token: workspace.owner.token },
    );
    expect(created.status).toBe(201);
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?view=${created.body.id}`);
    await expect.poll(() => shownKeys(page)).toEqual(['RM-1', 'RM-2', 'RM-4']);
    await page.getByRole('button', { name: 'Filter and sort' }).click();
    await page.getByText('has more than the editor shows').waitFor();
    expect(await page.getByRole('group', { name: 'Group 1', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Unsaved changes' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('definition')).toBeNull();
    expect(
      (await views(workspace, list.id)).find((view) => view.name === 'Deep')?.definition,
    ).toEqual(deep);
  });
});
