import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createWorkspace, type TestUser } from '../test/helpers/factories.js';

const web = useBrowserApp();

async function phone(user: TestUser, colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .context()
    .addCookies([{ name: 'session', value: user.token, url: web.url, httpOnly: true }]);
  return page;
}

/** Opens the workspace on a phone and checks the frame fits (and axe, when asked). */
async function openFrame(page: Page, slug: string, name: string, scheme: string, axe: boolean) {
  await page.goto(`/app/${slug}`);
  await page.getByRole('heading', { name }).waitFor();
  // The sidebar is folded away; the header fits without sideways scrolling.
  expect(await page.getByRole('complementary', { name: 'Workspace' }).isVisible()).toBe(false);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await screenshot(page, `phone-frame-${scheme}`);
  if (axe) expect(await accessibilityViolations(page)).toEqual([]);
}

describe('the workspace frame on a 390 px wide phone', () => {
  it('fits the command palette on the phone', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Small screen');
    const page = await phone(workspace.owner, 'light');
    await openFrame(page, workspace.slug, 'Small screen', 'light', true);
    await page.getByRole('button', { name: 'Commands' }).click();
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await screenshot(page, 'phone-palette-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
  it('opens the sidebar as a drawer from the header; going to a page closes it', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Pocket plans');
    const page = await phone(workspace.owner, 'light');
    await openFrame(page, workspace.slug, 'Pocket plans', 'light', false);
    expect(await page.getByText(workspace.owner.user.email).isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByText('Pocket plans').waitFor();
    await screenshot(page, 'phone-drawer-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await drawer.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await drawer.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/app/${workspace.slug}/settings`);
  });

  it('in the dark: the drawer opens by keyboard, Escape closes it and gives the focus back', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Night shift');
    const page = await phone(workspace.owner, 'dark');
    await openFrame(page, workspace.slug, 'Night shift', 'dark', true);

    await page.getByRole('button', { name: 'Menu' }).focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Activity' }).waitFor();
    await screenshot(page, 'phone-drawer-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
  });
});
