import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createItem } from '../test/helpers/factories.js';
import { cardWorkspace, readCard, signedInPage } from './card-helpers.js';

const web = useBrowserApp();

describe("a card's parent and sub-items", () => {
  it('picks a parent by part of its title with the keyboard only, and removes it', async () => {
    const { owner, workspace, list, other, item } = await cardWorkspace(web);
    const plan = await createItem(web.t, workspace, other.id, { title: 'Quarterly planning' });
    await createItem(web.t, workspace, list.id, { title: 'Quarterly review' });
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);

    const picker = page.getByRole('combobox', { name: 'Parent card' });
    await picker.focus();
    await page.keyboard.type('planni');
    const listbox = page.getByRole('listbox', { name: 'Parent candidates' });
    const planning = listbox.getByRole('option', {
      name: `${plan.key} Quarterly planning in Second list`,
    });
    await planning.waitFor();
    expect(await listbox.getByRole('option').count()).toBe(1);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('quarterly');
    // The card's own list first: the review, then the planning of the other list.
    await expect.poll(() => listbox.getByRole('option').count()).toBe(2);
    await screenshot(page, 'parent-picker');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => planning.getAttribute('aria-selected')).toBe('true');
    await expect
      .poll(() => picker.getAttribute('aria-activedescendant'))
      .toBe(await planning.getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `${plan.key} Quarterly planning` }).waitFor();
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.parentId)
      .toBe(plan.id);
    expect(await picker.getAttribute('aria-expanded')).toBe('false');

    // Escape closes the list, and leaves the card open.
    await page.keyboard.type('quarterly');
    await page.getByRole('listbox', { name: 'Parent candidates' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'Parent candidates' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await expect.poll(() => picker.inputValue()).toBe('');

    // The list opens on an arrow; with a parent, "Remove parent" comes first.
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Remove parent' }).waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.parentId)
      .toBe(null);
    await page.getByRole('button', { name: `${plan.key} Quarterly planning` }).waitFor({
      state: 'detached',
    });
  });

  it('picks a parent by its key typed in full', async () => {
    const { owner, workspace, other, item } = await cardWorkspace(web);
    const epic = await createItem(web.t, workspace, other.id, { title: 'An epic' });
    const page = await signedInPage(web, owner, { colorScheme: 'dark' });
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const picker = page.getByRole('combobox', { name: 'Parent card' });
    await picker.fill(epic.key.toLowerCase());
    await page.getByRole('option', { name: `${epic.key} An epic in Second list` }).waitFor();
    await picker.press('Enter');
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.parentId)
      .toBe(epic.id);
  });

  it('lists sub-items homed in other lists, and opens one by a click', async () => {
    const { owner, workspace, list, other, item } = await cardWorkspace(web);
    await createItem(web.t, workspace, list.id, { title: 'Here too', parentId: item.id });
    const away = await createItem(web.t, workspace, other.id, {
      title: 'Homed elsewhere',
      parentId: item.id,
    });
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?card=${item.key}`);
    const panel = page.getByRole('complementary', { name: `Card ${item.key}` });
    const subItems = panel.getByRole('region', { name: 'Sub-items' });
    await subItems.getByRole('button', { name: /Here too/ }).waitFor();
    const elsewhere = subItems.getByRole('button', {
      name: `${away.key} Homed elsewhere in Second list`,
    });
    await elsewhere.waitFor();
    expect(await subItems.getByRole('listitem').count()).toBe(2);
    await screenshot(page, 'sub-items-across-lists');
    expect(await accessibilityViolations(page)).toEqual([]);
    await elsewhere.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('card')).toBe(away.key);
    const child = page.getByRole('complementary', { name: `Card ${away.key}` });
    await child.getByRole('button', { name: `${item.key} Launch the site` }).waitFor();
  });

  it('does not offer its own sub-items, and shows a refused parent in words', async () => {
    const { owner, workspace, list, other, item } = await cardWorkspace(web);
    const child = await createItem(web.t, workspace, other.id, {
      title: 'Cycle child',
      parentId: item.id,
    });
    const grandchild = await createItem(web.t, workspace, list.id, {
      title: 'Cycle grandchild',
      parentId: child.id,
    });
    const deepest = await createItem(web.t, workspace, list.id, {
      title: 'Cycle deepest',
      parentId: grandchild.id,
    });
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    await page.getByRole('region', { name: 'Sub-items' }).getByRole('button').first().waitFor();
    const picker = page.getByRole('combobox', { name: 'Parent card' });
    await picker.fill('cycle');
    const refused = page.getByRole('option', { name: /A sub-item of this card/ });
    await expect.poll(() => refused.count()).toBe(2);
    expect(await refused.first().getAttribute('aria-disabled')).toBe('true');

    // Deeper than the picker knows: the server refuses, in its words, and the card keeps no parent.
    await page.getByRole('option', { name: new RegExp(`${deepest.key} Cycle deepest`) }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'cannot be placed under itself or one of its sub-items' })
      .waitFor();
    expect((await readCard(web, workspace, item.id)).body.parentId).toBe(null);
    await screenshot(page, 'parent-refused');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
