import { afterAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import { signedInPage } from './card-helpers.js';
import {
  localAgentEnv,
  marker,
  removeContainers,
  type TerminalBed,
  typeInTerminal,
  waitForScreen,
  workerBed,
} from './org-terminals-helpers.js';

const web = useBrowserApp(localAgentEnv, { background: true });
let shared: Promise<TerminalBed> | undefined;
/** One worker for the file's tests (spawning one takes seconds on a busy machine). */
const bed = () => {
  shared ??= workerBed(web);
  return shared;
};
afterAll(async () => {
  if (shared !== undefined) await removeContainers([(await shared).org]);
});

describe("a worker's terminal sessions in the browser", () => {
  it('shows what one page types in a second page attached to the same session', async () => {
    const { owner, page: address } = await bed();
    const first = await signedInPage(web, owner);
    const second = await signedInPage(web, owner);
    // One after the other: the first attach creates the session (two at once race to create it).
    await first.goto(`${address}?session=pair`);
    await first.getByRole('status').getByText('Connected.').waitFor();
    await second.goto(`${address}?session=pair`);
    await second.getByRole('status').getByText('Connected.').waitFor();
    const n = marker();
    await typeInTerminal(first, `echo pair-$((${n}*2))\n`);
    await waitForScreen(first, new RegExp(`pair-${n * 2}`));
    await waitForScreen(second, new RegExp(`pair-${n * 2}`));
    await second.getByRole('link', { name: /^pair\s+2 attached$/ }).waitFor({ timeout: 10_000 });
    await first.close();
    await second.close();
  }, 120_000);

  it('creates a session from the page, switches to it, and kills it after a confirmation', async () => {
    const { owner, sessions, page: address } = await bed();
    const as = { token: owner.token };
    const page = await signedInPage(web, owner);
    await page.goto(`${address}?session=main`);
    await page.getByRole('status').getByText('Connected.').waitFor();

    // A name the API refuses is said next to the field.
    await page.getByLabel('Session name').fill('no spaces');
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByLabel('Session name').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await descriptionOf(page, 'Session name')).toMatch(/Letters, digits.*\S+/);

    await page.getByLabel('Session name').fill('build');
    await page.getByRole('button', { name: 'New session' }).click();
    await page.waitForURL(/\?session=build$/);
    await page
      .getByRole('link', { name: /^build/ })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();
    await page.getByRole('status').getByText('Connected.').waitFor();
    const names = async () => {
      const listed: unknown = (await web.t.api.get(sessions, as)).body;
      return Array.isArray(listed) ? listed.map((session) => String(session.name)) : [];
    };
    expect(await names()).toContain('build');
    await typeInTerminal(page, 'echo in-$((6*7))\n');
    await waitForScreen(page, /in-42/);

    // Switching tabs attaches the other session (the address follows).
    await page.getByRole('link', { name: /^main/ }).click();
    await page.waitForURL(/\?session=main$/);
    await page.getByRole('status').getByText('Connected.').waitFor();
    await screenshot(page, 'org-terminal-sessions');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Killing asks first, then the session is gone from the API and the tabs.
    await page.getByRole('button', { name: 'Kill session build' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kill session build?' });
    await screenshot(page, 'org-terminal-kill');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Kill session' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(names, { timeout: 10_000 }).not.toContain('build');
    await page.getByRole('link', { name: /^build/ }).waitFor({ state: 'detached' });
    await page.close();
  }, 120_000);

  it('tells the session its new size when the window changes', async () => {
    const { owner, page: address } = await bed();
    const page = await signedInPage(web, owner);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${address}?session=sized`);
    const size = async () => {
      const n = marker();
      await typeInTerminal(page, `clear; echo size$((${n}-${n}))-$(stty size | tr ' ' x)\n`);
      const screen = await waitForScreen(page, /size0-\d+x\d+/);
      return /size0-(\d+)x(\d+)/.exec(screen)?.slice(1).map(Number);
    };
    const wide = await size();
    await page.setViewportSize({ width: 900, height: 600 });
    await expect.poll(size, { timeout: 20_000 }).not.toEqual(wide);
    const narrow = await size();
    expect(narrow?.[0]).toBeLessThan(wide?.[0] ?? 0);
    expect(narrow?.[1]).toBeLessThan(wide?.[1] ?? 0);
    await page.close();
  }, 120_000);
});
