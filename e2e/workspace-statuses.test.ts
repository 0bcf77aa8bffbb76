import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createItem,
  createUser,
  createWorkspace,
  type TestWorkspace,
} from '../test/helpers/factories.js';
import { signInAs } from './workspace-session.js';

const web = useBrowserApp();

async function statusNames(workspace: TestWorkspace): Promise<string[]> {
  const answer = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
    token: workspace.owner.token,
  });
  return answer.body.map((status: { name: string }) => status.name);
}

describe('the statuses of a workspace', () => {
  it('creates a status, reorders it with the keyboard alone and by dragging, and renames it', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Flow');
    const page = await web.page();
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/statuses`);
    const started = page.getByRole('region', { name: 'Started', exact: true });
    await started.getByText('In Progress').waitFor();

    await page.getByLabel('Status name').fill('Review');
    await page.getByLabel('Category').selectOption('started');
    await page.getByLabel('Color').fill('#7c3aed');
    await page.getByRole('button', { name: 'Create status' }).click();
    const handle = page.getByRole('button', { name: 'Move Review' });
    await handle.waitFor();
    expect(await statusNames(workspace)).toEqual(['Todo', 'In Progress', 'Done', 'Review']);

    // Keyboard only: Space picks up (dnd-kit marks the handle pressed), an arrow moves, Space drops.
    await handle.press('Space');
    await expect.poll(() => handle.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('ArrowUp');
    // Dropped once the move is announced, as a screen reader user hears it:
    // dnd-kit finds the place under the moved handle on its next render.
    await page.getByText('Review is over In Progress.').waitFor();
    await page.keyboard.press('Space');
    // Within its category: the started slots swap, Done keeps its place between them.
    await expect
      .poll(() => statusNames(workspace))
      .toEqual(['Todo', 'Review', 'Done', 'In Progress']);
    expect(await started.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Review'),
      expect.stringContaining('In Progress'),
    ]);

    // By pointer: drag In Progress back above Review.
    const from = await page.getByRole('button', { name: 'Move In Progress' }).boundingBox();
    const to = await handle.boundingBox();
    if (from === null || to === null) throw new Error('the handles are not shown');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 10 });
    await page.mouse.up();
    await expect
      .poll(() => statusNames(workspace))
      .toEqual(['Todo', 'In Progress', 'Done', 'Review']);
    expect(await started.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('In Progress'),
      expect.stringContaining('Review'),
    ]);
    await screenshot(page, 'statuses-reordered');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit Review' }).click();
    const form = page.getByRole('form', { name: 'Edit Review' });
    await form.getByLabel('Name').fill('todo');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/already|taken|Another status/i).waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('todo');
    await form.getByLabel('Name').fill('In review');
    await form.getByRole('button', { name: 'Save' }).click();
    await started.getByText('In review').waitFor();
    expect(await statusNames(workspace)).toContain('In review');
  });

  it('refuses to delete a status cards use, in words, and deletes an unused one', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Cleanup');
    const list = await createCollection(web.t, workspace);
    const statuses = await web.t.http.get(`/workspaces/${workspace.id}/statuses`, {
      token: owner.token,
    });
    const todo = statuses.body.find((status: { name: string }) => status.name === 'Todo');
    await createItem(web.t, workspace, list.id, { title: 'Busy', statusId: todo?.id });
    const page = await web.page({ colorScheme: 'dark' });
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/statuses`);

    await page.getByRole('button', { name: 'Delete Todo' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete status' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cards still have this status' }).waitFor();
    expect(await statusNames(workspace)).toContain('Todo');
    await screenshot(page, 'statuses-refused-dark');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Delete Done' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete status' }).click();
    // (While the dialog is open the page behind it is hidden from roles: wait for the list itself.)
    await page
      .getByRole('region', { name: 'Completed' })
      .getByText('No status in this category.')
      .waitFor();
    expect(await statusNames(workspace)).toEqual(['Todo', 'In Progress']);
  });

  it('shows a member the statuses read-only, with the reason', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Read');
    const member = await addMember(web.t, workspace, 'member', 'Mia');
    const page = await web.page();
    await signInAs(page, web.url, member);
    await page.goto(`/app/${workspace.slug}/settings/statuses`);
    await page.getByText('Read-only: your role is member').waitFor();
    await page.getByText('In Progress').waitFor();
    expect(await page.getByRole('button', { name: /^(Move|Edit|Delete) / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create status' }).count()).toBe(0);
    await screenshot(page, 'statuses-member');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
