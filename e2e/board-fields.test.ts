import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../test/helpers/factories.js';
import { column, dragWithMouse, eventually, moveByKeyboard } from './board-helpers.js';

/** Boards grouped by a field (a select, a checkbox) rather than the status. */
const web = useBrowserApp();

async function propertiesOf(workspace: TestWorkspace, itemId: string) {
  const response = await web.t.http.get(`/workspaces/${workspace.id}/items/${itemId}`, {
    token: workspace.owner.token,
  });
  return response.body.properties as Record<string, unknown>;
}

/** A saved board view of the list grouped by the field, opened in a signed-in page. */
async function boardGroupedBy(workspace: TestWorkspace, listId: string, fieldId: string) {
  const view = await web.t.http.post(
    `/workspaces/${workspace.id}/collections/${listId}/views`,
    { name: 'By field', definition: { groupBy: { fieldId } }, display: { layout: 'board' } },
    { token: workspace.owner.token },
  );
  expect(view.status).toBe(201);
  const page = await web.page();
  await page
    .context()
    .addCookies([{ name: 'session', value: workspace.owner.token, url: web.url }]);
  await page.goto(`/app/${workspace.slug}/lists/${listId}?view=${view.body.id}`);
  return page;
}

describe('a board grouped by a field', () => {
  it('shows a column per option and one for none; a drag sets the option, or clears it', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Ideas' });
    const stage = await createField(web.t, workspace, {
      key: 'stage',
      type: 'select',
      name: 'Stage',
      config: {
        options: [
          { label: 'Idea', color: '#7c3aed' },
          { label: 'Build', color: '#0891b2' },
        ],
      },
    });
    const [idea, build] = (stage.config.options ?? []).map((option) => option.id);
    const alpha = await createItem(web.t, workspace, list.id, {
      title: 'Alpha',
      properties: { stage: idea },
    });
    const bravo = await createItem(web.t, workspace, list.id, { title: 'Bravo' });
    const page = await boardGroupedBy(workspace, list.id, stage.id);

    await column(page, 'Idea').getByText('Alpha').waitFor();
    await column(page, 'No Stage').getByText('Bravo').waitFor();
    expect(await column(page, 'Build').getByText('No cards').count()).toBe(1);

    await dragWithMouse(page, column(page, 'Idea').getByText('Alpha'), column(page, 'Build'));
    await column(page, 'Build').getByText('Alpha').waitFor();
    await expect
      .poll(async () => (await propertiesOf(workspace, alpha.id)).stage, eventually)
      .toBe(build);

    // Out of every option: into the column of none.
    await dragWithMouse(page, column(page, 'Build').getByText('Alpha'), column(page, 'No Stage'));
    await column(page, 'No Stage').getByText('Alpha').waitFor();
    await expect
      .poll(async () => (await propertiesOf(workspace, alpha.id)).stage ?? null, eventually)
      .toBeNull();
    expect((await propertiesOf(workspace, bravo.id)).stage ?? null).toBeNull();
    await column(page, 'Build').getByText('No cards').waitFor();
    await screenshot(page, 'board-by-select');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows a checkbox as two columns; a drag by keyboard checks it', async () => {
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace, { name: 'Triage' });
    const urgent = await createField(web.t, workspace, {
      key: 'urgent',
      type: 'checkbox',
      name: 'Urgent',
    });
    const card = await createItem(web.t, workspace, list.id, {
      title: 'Leak',
      properties: { urgent: false },
    });
    const page = await boardGroupedBy(workspace, list.id, urgent.id);
    const leak = column(page, 'Not Urgent').locator('[data-card-key]', { hasText: 'Leak' });
    await leak.waitFor();
    expect(await column(page, 'Urgent').getByText('No cards').count()).toBe(1);

    // Urgent is the first column: a column left.
    await moveByKeyboard(page, leak, 'ArrowLeft', column(page, 'Urgent'));
    await column(page, 'Urgent').getByText('Leak').waitFor();
    await expect
      .poll(async () => (await propertiesOf(workspace, card.id)).urgent, eventually)
      .toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
