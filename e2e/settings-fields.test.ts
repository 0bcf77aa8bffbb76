import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createField,
  createWorkspace,
  selectOptions,
  type TestUser,
} from '../test/helpers/factories.js';

const web = useBrowserApp();

/** A page signed in as `user` (the session cookie the sign-in screen would set). */
async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  return page;
}

describe('the field registry', () => {
  it('creates a select field with colored options, offering every type', async () => {
    const workspace = await createWorkspace(web.t);
    await createField(web.t, workspace, { key: 'estimate', type: 'number', name: 'Estimate' });
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/fields`);
    await page.getByRole('heading', { name: 'Fields', exact: true }).waitFor();
    await page.getByText('Number · estimate').waitFor();

    // Every type of the API is offered.
    const create = page.getByRole('region', { name: 'Create a field' });
    const types = await create.getByLabel('Type').locator('option').allTextContents();
    expect(types).toEqual([
      'Text',
      'Number',
      'Select',
      'Multi-select',
      'Person',
      'People',
      'Date',
      'Checkbox',
      'URL',
      'E-mail',
      'File',
    ]);

    await create.getByLabel('Name').fill('Priority level');
    expect(await create.getByLabel('Key').inputValue()).toBe('priority_level');
    await create.getByLabel('Type').selectOption('select');
    await create.getByRole('button', { name: 'Add an option' }).click();
    await create.getByLabel('Option 1', { exact: true }).fill('Urgent');
    await create.getByRole('group', { name: 'Color of option 1' }).getByLabel('Red').check();
    await create.getByRole('button', { name: 'Add an option' }).click();
    await create.getByLabel('Option 2', { exact: true }).fill('Later');
    await create.getByRole('group', { name: 'Color of option 2' }).getByLabel('Gray').check();
    await screenshot(page, 'fields-create');
    await create.getByRole('button', { name: 'Create field' }).click();

    const row = page.getByRole('listitem', { name: 'Priority level' });
    await row.getByText('Select · priority_level').waitFor();
    const options = row.getByRole('list', { name: 'Options of Priority level' });
    await options.getByText('Urgent').waitFor();
    expect(await options.getByRole('img', { name: 'Red' }).count()).toBe(1);
    expect(await options.getByRole('img', { name: 'Gray' }).count()).toBe(1);

    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('refuses a taken key next to the key, keeping what was typed', async () => {
    const workspace = await createWorkspace(web.t);
    await createField(web.t, workspace, { key: 'priority_level', type: 'text', name: 'P' });
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/fields`);
    const create = page.getByRole('region', { name: 'Create a field' });
    await create.getByLabel('Name').fill('Priority level');
    await create.getByRole('button', { name: 'Create field' }).click();
    await create.getByText('Another field of this workspace has this key').waitFor();
    expect(await descriptionOf(page, 'Key')).toContain(
      'Another field of this workspace has this key',
    );
    expect(await create.getByLabel('Name').inputValue()).toBe('Priority level');

    await screenshot(page, 'fields-refused');
  });

  it('renames a field and adds an option in a color of the palette', async () => {
    const workspace = await createWorkspace(web.t);
    await createField(web.t, workspace, {
      key: 'priority_level',
      type: 'select',
      name: 'Priority level',
      config: { options: [{ label: 'Urgent', color: '#dc2626' }] },
    });
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/fields`);
    const row = page.getByRole('listitem', { name: 'Priority level' });
    await row.getByRole('button', { name: 'Rename Priority level' }).click();
    await page.getByLabel('New name of Priority level').fill('Priority');
    await page.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('listitem', { name: 'Priority' });
    await renamed.getByText('Select · priority_level').waitFor();

    await renamed.getByLabel('New option of Priority').fill('Soon');
    await renamed.getByRole('radio', { name: 'Green' }).check();
    await renamed.getByRole('button', { name: 'Add option' }).click();
    await renamed.getByRole('list', { name: 'Options of Priority' }).getByText('Soon').waitFor();
    const fields = await web.t.http.get(`/workspaces/${workspace.id}/fields`, {
      token: workspace.owner.token,
    });
    const priority = fields.body.find((field) => field.key === 'priority_level');
    expect(priority?.name).toBe('Priority');
    expect(priority?.config.options?.map((option) => [option.label, option.color])).toEqual([
      ['Urgent', '#dc2626'],
      ['Soon', '#16a34a'],
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('refuses to delete a field a saved view uses, naming the view; deletes it once free', async () => {
    const workspace = await createWorkspace(web.t);
    const field = await createField(web.t, workspace, {
      key: 'stage',
      type: 'select',
      name: 'Stage',
      config: selectOptions('Idea', 'Done'),
    });
    const list = await createCollection(web.t, workspace, { name: 'Roadmap' });
    const view = await web.t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      { name: 'By stage', definition: { sort: [{ fieldId: field.id, direction: 'asc' }] } },
      { token: workspace.owner.token },
    );
    expect(view.status).toBe(201);

    const page = await signedIn(workspace.owner, 'dark');
    await page.goto(`/app/${workspace.slug}/settings/fields`);
    const row = page.getByRole('listitem', { name: 'Stage' });
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the field Stage?' });
    await dialog.getByRole('button', { name: 'Delete field' }).click();
    await dialog
      .getByRole('alert')
      .getByText(
        'This field cannot be deleted: the view “By stage” of Roadmap uses it. Change or delete that view first.',
      )
      .waitFor();
    await screenshot(page, 'fields-in-use-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await web.t.http.delete(
      `/workspaces/${workspace.id}/collections/${list.id}/views/${view.body.id}`,
      { token: workspace.owner.token },
    );
    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete field' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    await page.getByText('No field yet.').waitFor();
  });

  it('shows a member the registry without the controls, saying why', async () => {
    const workspace = await createWorkspace(web.t);
    await createField(web.t, workspace, { key: 'due', type: 'date', name: 'Due' });
    const member = await addMember(web.t, workspace, 'member');
    const page = await signedIn(member);
    await page.goto(`/app/${workspace.slug}/settings/fields`);
    await page.getByText('Date · due').waitFor();
    await page.getByText(/Only admins and owners can create, rename or delete fields/).waitFor();
    expect(await page.getByRole('button', { name: /Rename|Delete/ }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Create a field' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
