import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createItem } from '../test/helpers/factories.js';
import { cardWorkspace, readCard, signedInPage } from './card-helpers.js';

const web = useBrowserApp();

describe('a card and the cards around it', () => {
  it('creates sub-items and opens them, and opens the parent from a sub-item', async () => {
    const { owner, workspace, list, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?card=${item.key}`);
    const panel = page.getByRole('complementary', { name: `Card ${item.key}` });
    await panel.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
    await panel.getByLabel('New sub-item title', { exact: true }).fill('Write the copy');
    await panel.getByLabel('New sub-item title', { exact: true }).press('Enter');
    await panel.getByRole('button', { name: /Write the copy/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('card')).not.toBe(item.key);
    const child = page.getByRole('complementary', { name: /^Card / });
    await expect
      .poll(() => child.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Write the copy');
    await child.getByRole('button', { name: `${item.key} Launch the site` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('card')).toBe(item.key);
  });

  it('attaches to and detaches from a list, and sets and removes a parent by key', async () => {
    const { owner, workspace, list, item } = await cardWorkspace(web);
    const loose = await createItem(web.t, workspace, list.id, { title: 'Loose card' });
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/lists/${list.id}?card=${item.key}`);
    const panel = page.getByRole('complementary', { name: `Card ${item.key}` });
    await panel.getByLabel('Lists', { exact: true }).selectOption({ label: 'Second list' });
    await panel.getByRole('button', { name: 'Detach from Second list' }).waitFor();
    expect((await readCard(web, workspace, item.id)).body.collectionIds).toHaveLength(1);
    await panel.getByRole('button', { name: 'Detach from Second list' }).click();
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.collectionIds)
      .toEqual([]);

    await page.goto(`/app/${workspace.slug}/${loose.key}`);
    const picker = page.getByRole('combobox', { name: 'Parent card' });
    await picker.fill(item.key.toLowerCase());
    await page.getByRole('option', { name: `${item.key} Launch the site` }).waitFor();
    await picker.press('Enter');
    await page.getByRole('button', { name: `${item.key} Launch the site` }).waitFor();
    expect((await readCard(web, workspace, loose.id)).body.parentId).toBe(item.id);
    await picker.fill('RM-999');
    await page.getByText('No card matches').waitFor();
    await picker.press('Escape');
    await page.getByRole('button', { name: 'Remove parent' }).click();
    await expect
      .poll(async () => (await readCard(web, workspace, loose.id)).body.parentId)
      .toBe(null);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('duplicates, archives and restores', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner, { colorScheme: 'dark' });
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    await page.getByRole('button', { name: 'Card actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await expect.poll(() => page.url()).not.toContain(item.key);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Launch the site (copy)');
    const copyKey = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');

    await page.getByRole('button', { name: 'Card actions' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await page.getByText('This card is archived').waitFor();
    // The banner shows at once (optimistic); the server's answer follows.
    await expect
      .poll(async () => (await readCard(web, workspace, copyKey)).body.archived)
      .toBe(true);
    await screenshot(page, 'card-archived-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect
      .poll(async () => (await readCard(web, workspace, copyKey)).body.archived)
      .toBe(false);
  });

  it('deletes after confirming, and goes back to the workspace', async () => {
    const { owner, workspace, list, item } = await cardWorkspace(web);
    const doomed = await createItem(web.t, workspace, list.id, { title: 'To delete' });
    const copyKey = doomed.key;
    const page = await signedInPage(web, owner, { colorScheme: 'dark' });
    await page.goto(`/app/${workspace.slug}/${copyKey}`);

    await page.getByRole('button', { name: 'Card actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    await page.getByRole('dialog', { name: `Delete ${copyKey}?` }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Delete card' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/app/${workspace.slug}`);
    expect((await readCard(web, workspace, copyKey)).status).toBe(404);
    expect((await readCard(web, workspace, item.key)).status).toBe(200);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`is readable and editable on a 390 px phone, full-screen over the list (${colorScheme})`, async () => {
      const { owner, workspace, list, item } = await cardWorkspace(web);
      const page = await signedInPage(web, owner, { colorScheme, phone: true });
      await page.goto(`/app/${workspace.slug}/lists/${list.id}?card=${item.key}`);
      const panel = page.getByRole('complementary', { name: `Card ${item.key}` });
      await panel.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
      const box = await panel.boundingBox();
      expect(box?.width).toBe(390);
      // Nothing wider than the screen: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      await panel.getByLabel('Notes', { exact: true }).fill(`from a phone, ${colorScheme}`);
      await panel.getByLabel('Notes', { exact: true }).press('Enter');
      await expect
        .poll(async () => (await readCard(web, workspace, item.id)).body.properties.notes)
        .toBe(`from a phone, ${colorScheme}`);
      await screenshot(page, `card-phone-${colorScheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await panel.getByRole('button', { name: 'Close' }).click();
      await panel.waitFor({ state: 'detached' });
    });
  }
});
