import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { cardWorkspace, readCard, signedInPage } from './card-helpers.js';

const web = useBrowserApp();

/** Whether the focused element shows a focus ring (an outline that is not `none`). */
function focusRingShown() {
  const focused = document.activeElement;
  if (focused === null) return false;
  return getComputedStyle(focused).outlineStyle !== 'none';
}

describe('what is typed in a card is never lost', () => {
  it('keeps a title and body whose save failed across a reload', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner);
    // Every save of the card fails as a dropped connection would.
    await page.route('**/items/*', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => title.inputValue()).toBe('Launch the site');
    await title.fill('Typed while failing');
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('A body that must survive');
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    await screenshot(page, 'card-draft-failed');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect((await readCard(web, workspace, item.id)).body.title).toBe('Launch the site');

    await page.reload();
    await expect.poll(() => title.inputValue()).toBe('Typed while failing');
    await page.getByText('A body that must survive').waitFor();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
  });

  it('sends a failed save again by Retry, then forgets the draft', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner);
    await page.route('**/items/*', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => title.inputValue()).toBe('Launch the site');
    await title.fill('Typed while failing');
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('A body that must survive');
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    await page.unroute('**/items/*');
    await page.getByRole('button', { name: 'Retry now' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const saved = (await readCard(web, workspace, item.id)).body;
    expect(saved.title).toBe('Typed while failing');
    expect(saved.body).toContain('A body that must survive');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('keeps typing while offline and sends the draft when the connection is back', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => title.inputValue()).toBe('Launch the site');
    await page.context().setOffline(true);
    await title.fill('Written on a train');
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(1);
    await page.context().setOffline(false);
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.title)
      .toBe('Written on a train');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  });

  it('is edited with the keyboard only, every control showing its focus', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await expect.poll(() => title.inputValue()).toBe('Launch the site');
    const tabTo = async (test: () => boolean) => {
      for (let step = 0; step < 60; step += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(test)) {
          expect(await page.evaluate(focusRingShown)).toBe(true);
          return;
        }
      }
      throw new Error('not reached by Tab');
    };
    // From the title on (focused as a Tab from the page's header would), keys only.
    await title.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' by keyboard');
    await tabTo(() => document.activeElement?.id === 'card-status');
    await page.keyboard.press('ArrowDown');
    await tabTo(() => document.activeElement?.getAttribute('aria-label') === 'Body');
    await page.keyboard.type('- typed without a mouse');
    // Escape leaves the editor, so Tab goes on to the next control.
    await page.keyboard.press('Escape');
    await tabTo(() => document.activeElement?.getAttribute('placeholder') === 'New sub-item');
    await page.keyboard.type('Keyboard child');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /Keyboard child/ }).waitFor();
    await expect
      .poll(async () => {
        const card = (await readCard(web, workspace, item.id)).body;
        return [card.title, card.blocks.blocks[0]?.type];
      })
      .toEqual(['Launch the site by keyboard', 'bulleted_list']);
    expect((await readCard(web, workspace, item.id)).body.statusId).not.toBe(item.statusId);
  });
});
