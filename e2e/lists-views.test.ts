import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createItem,
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

async function views(workspace: TestWorkspace, listId: string) {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/collections/${listId}/views`, {
    token: workspace.owner.token,
  });
  return response.body as Array<{
    id: string;
    name: string;
    definition: Record<string, unknown>;
    display: { columns?: Array<Record<string, unknown>> };
  }>;
}

async function listWithViews() {
  const workspace = await createWorkspace(web.t);
  const list = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
  for (const title of ['Alpha launch', 'Beta launch', 'Alpha docs']) {
    await createItem(web.t, workspace, list.id, { title });
  }
  const created = await web.t.http.post(
    `/workspaces/${workspace.id}/collections/${list.id}/views`,
    { name: 'Everything', definition: {} },
    { token: workspace.owner.token },
  );
  expect(created.status).toBe(201);
  return { workspace, list };
}

describe('the views of a list', () => {
  it('edits a filter into the address, keeps it on reload, and discards it', async () => {
    const { workspace, list } = await listWithViews();
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    const tabs = page.getByRole('navigation', { name: 'Views' });
    await tabs.getByRole('link', { name: 'Everything' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Everything' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.locator('[data-card-key="RM-3"]').waitFor();

    await page.getByRole('button', { name: 'Filter and sort' }).click();
    await page.getByRole('button', { name: '+ Add condition' }).click();
    expect(await page.getByLabel('Operator of condition 1').inputValue()).toBe('contains');
    await page.getByLabel('Value of condition 1').fill('Alpha');
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await expect.poll(() => page.locator('[data-card-key]').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('definition')).toContain('Alpha');
    await screenshot(page, 'views-unsaved-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The address keeps the edit across a reload.
    await page.reload();
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await expect.poll(() => page.locator('[data-card-key]').count()).toBe(2);

    await page.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => page.locator('[data-card-key]').count()).toBe(3);
    expect(await page.getByRole('region', { name: 'Unsaved changes' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('definition')).toBeNull();
  });

  it('saves an edited filter and sort into the view', async () => {
    const { workspace, list } = await listWithViews();
    const page = await signedInPage(workspace);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.locator('[data-card-key="RM-3"]').waitFor();

    await page.getByRole('button', { name: 'Filter and sort' }).click();
    await page.getByRole('button', { name: '+ Add condition' }).click();
    await page.getByLabel('Value of condition 1').fill('launch');
    await page.getByRole('button', { name: '+ Add sort' }).click();
    await page.getByLabel('Sort 1 by').selectOption({ label: 'Number' });
    await page.getByLabel('Sort 1 direction').selectOption('desc');
    await expect
      .poll(() =>
        page
          .locator('[data-card-key]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-card-key'))),
      )
      .toEqual(['RM-2', 'RM-1']);
    await page.getByRole('button', { name: 'Save view' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Unsaved changes' }).count()).toBe(0);
    const [saved] = await views(workspace, list.id);
    expect(saved?.definition).toEqual({
      filter: { and: [{ attribute: 'title', op: 'contains', value: 'launch' }] },
      sort: [{ attribute: 'number', direction: 'desc' }],
    });
  });

  it('saves as a new view, renames and deletes it', async () => {
    const { workspace, list } = await listWithViews();
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.locator('[data-card-key="RM-3"]').waitFor();

    await page.getByRole('button', { name: 'Board', exact: true }).click();
    await page.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await page.getByRole('button', { name: 'Save as new view' }).click();
    await page.getByLabel('View name').fill('Board of it');
    await page.getByRole('button', { name: 'Save view' }).click();
    const tabs = page.getByRole('navigation', { name: 'Views' });
    await expect
      .poll(() => tabs.getByRole('link', { name: 'Board of it' }).getAttribute('aria-current'))
      .toBe('page');
    expect(
      await page.getByRole('button', { name: 'Board', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');

    await page.getByRole('button', { name: 'View Board of it actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename view' }).click();
    await page.getByLabel('View name').fill('Kanban');
    await page.getByRole('button', { name: 'Rename' }).click();
    await tabs.getByRole('link', { name: 'Kanban' }).waitFor();
    await page.getByRole('button', { name: 'View Kanban actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete view' }).click();
    await page.getByRole('button', { name: 'Delete view' }).click();
    await expect
      .poll(async () => (await views(workspace, list.id)).map((view) => view.name))
      .toEqual(['Everything']);
  });

  it('saves the picked columns into the view', async () => {
    const { workspace, list } = await listWithViews();
    const page = await signedInPage(workspace, 'dark');
    await page.goto(`/app/${workspace.slug}/lists/${list.id}`);
    await page.locator('[data-card-key="RM-3"]').waitFor();

    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    await dialog.getByRole('checkbox', { name: 'Status' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Created', exact: true }).check();
    await dialog.getByRole('button', { name: 'Move Created up' }).click();
    await screenshot(page, 'views-columns-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save columns' }).click();
    await expect
      .poll(() => page.getByRole('columnheader').allInnerTexts())
      .toEqual(['Key', 'Title', 'Created']);
    const [everything] = await views(workspace, list.id);
    expect(everything?.display.columns?.slice(0, 2)).toEqual([
      { attribute: 'statusId', hidden: true },
      { attribute: 'createdAt' },
    ]);
  });
});
