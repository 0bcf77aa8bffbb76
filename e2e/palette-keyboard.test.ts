import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createCollection, createWorkspace, type TestUser } from '../test/helpers/factories.js';

const web = useBrowserApp();

async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page
    .context()
    .addCookies([{ name: 'session', value: user.token, url: web.url, httpOnly: true }]);
  return page;
}

const path = (page: Page) => new URL(page.url()).pathname;

/** The focused element's name, and whether it shows a focus ring. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement)) return { name: '', ring: false };
    const style = getComputedStyle(element);
    return {
      // Its first line: the Commands button also shows its shortcut.
      name:
        (element.getAttribute('aria-label') ?? element.innerText ?? '').trim().split('\n')[0] ?? '',
      ring: style.outlineStyle !== 'none' || style.boxShadow !== 'none',
    };
  });

describe('the command palette and the shortcuts, keyboard only', () => {
  it('finds and opens a list with the keyboard', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Keys');
    const roadmap = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RD' });
    await createCollection(web.t, workspace, { name: 'Bugs', keyPrefix: 'BG' });
    const view = await web.t.http.post(
      `/workspaces/${workspace.id}/collections/${roadmap.id}/views`,
      { name: 'This quarter', definition: {} },
      { token: workspace.owner.token },
    );
    expect(view.status).toBe(201);

    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Keys' }).waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: 'Roadmap', exact: true }).waitFor();
    await palette.getByRole('option', { name: 'Roadmap › This quarter' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe(
      'combobox',
    );
    await screenshot(page, 'palette-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.type('roadmap');
    await page.keyboard.press('Enter');
    await expect.poll(() => path(page)).toBe(`/app/${workspace.slug}/lists/${roadmap.id}`);
    expect(await palette.count()).toBe(0);
  });

  it('goes to a saved view, a settings page and another workspace', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Keys two');
    const other = await createWorkspace(web.t, workspace.owner, 'Elsewhere');
    const roadmap = await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RD' });
    const view = await web.t.http.post(
      `/workspaces/${workspace.id}/collections/${roadmap.id}/views`,
      { name: 'This quarter', definition: {} },
      { token: workspace.owner.token },
    );
    expect(view.status).toBe(201);
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Keys two' }).waitFor();
    const palette = page.getByRole('dialog', { name: 'Command palette' });

    await page.keyboard.press('Control+k');
    await page.keyboard.type('this quarter');
    await palette.getByRole('option', { name: 'Roadmap › This quarter' }).waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('view'))
      .toBe(String(view.body.id));

    await page.keyboard.press('Control+k');
    await page.keyboard.type('members');
    await page.keyboard.press('Enter');
    await expect.poll(() => path(page)).toBe(`/app/${workspace.slug}/settings/members`);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('elsewhere');
    await page.keyboard.press('Enter');
    await expect.poll(() => path(page)).toBe(`/app/${other.slug}`);
    await page.getByRole('heading', { name: 'Elsewhere' }).waitFor();
  });

  it('runs registered commands by their shortcuts and lists them on ?', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Shortcuts');
    const page = await signedIn(workspace.owner, 'dark');
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Shortcuts' }).waitFor();

    // A sequence: g then s goes to the settings, g then a to the activity.
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await expect.poll(() => path(page)).toBe(`/app/${workspace.slug}/settings`);
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect.poll(() => path(page)).toBe(`/app/${workspace.slug}/activity`);

    // Typed into a text field (the palette's search), the same keys are only text.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('gs');
    expect(await page.getByRole('combobox').inputValue()).toBe('gs');
    expect(path(page)).toBe(`/app/${workspace.slug}/activity`);
    await screenshot(page, 'palette-dark');
    await page.keyboard.press('Escape');

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Open the command palette').waitFor();
    await help.getByRole('definition').filter({ hasText: 'then' }).first().waitFor();
    expect(await help.getByText('Settings', { exact: true }).count()).toBe(1);
    await screenshot(page, 'shortcuts-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('reaches every control of the frame by Tab with a visible focus, and signs out', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Tabs');
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Tabs' }).waitFor();

    // Every control of the frame is reached by Tab and shows where the focus is.
    // From the header's first control, as the first Tab of the page reaches it.
    await page.getByRole('link', { name: 'Sparrow' }).focus();
    expect((await focused(page)).ring).toBe(true);
    const seen: string[] = ['Sparrow'];
    // Past the header and the workspace switcher to the sidebar's pages.
    for (let index = 0; index < 7; index++) {
      await page.keyboard.press('Tab');
      const { name, ring } = await focused(page);
      expect(ring, `${name} shows its focus`).toBe(true);
      seen.push(name);
    }
    expect(seen).toEqual(
      expect.arrayContaining(['Sparrow', 'Commands', 'Sign out', 'Overview', 'Settings']),
    );

    await page.keyboard.press('Control+k');
    await page.keyboard.type('sign out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
