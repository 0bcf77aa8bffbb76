import { afterAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import type { TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';
import {
  localAgentEnv,
  marker,
  removeContainers,
  screenText,
  typeInTerminal,
  waitForScreen,
  workerBed,
} from './org-terminals-helpers.js';

const web = useBrowserApp(localAgentEnv, { background: true });
const orgs: TestOrg[] = [];
afterAll(() => removeContainers(orgs));

describe("a worker's terminal in the browser", () => {
  it('types into the session and shows its output; closing the page detaches, reopening restores the screen', async () => {
    const bed = await workerBed(web);
    orgs.push(bed.org);
    const as = { token: bed.owner.token };
    const page = await signedInPage(web, bed.owner);
    await page.goto(bed.page);
    await page.getByRole('heading', { level: 1, name: /^Terminal of / }).waitFor();

    // The sum is printed by the shell, not echoed as typed: only the program's output matches.
    const n = marker();
    await typeInTerminal(page, `echo hello-$((${n}+1))\n`);
    await waitForScreen(page, new RegExp(`hello-${n + 1}`));
    // UTF-8 both ways, across the frames the output comes in.
    await typeInTerminal(page, "printf '%s\\n' 'ünïcødé-✓' | tr 'd' 'D'\n");
    await waitForScreen(page, /ünïcøDé-✓/);

    // The session is `main`, attached once, as the API lists it.
    const listed = await web.t.api.get(bed.sessions, as);
    expect(listed.body).toMatchObject([{ name: 'main', attachments: 1 }]);
    await page
      .getByRole('navigation', { name: 'Terminal sessions' })
      .getByRole('link', { name: /^main/ })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();
    await screenshot(page, 'org-terminal-worker');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Closing the page detaches: the session keeps running, with nobody attached.
    await page.close();
    await expect
      .poll(async () => (await web.t.api.get(bed.sessions, as)).body, { timeout: 10_000 })
      .toMatchObject([{ name: 'main', attachments: 0 }]);

    // Opened again, the server replays the screen: the earlier output is back.
    const again = await signedInPage(web, bed.owner);
    await again.goto(bed.page);
    await again.getByRole('status').getByText('Connected.').waitFor();
    await waitForScreen(again, new RegExp(`hello-${n + 1}[\\s\\S]*ünïcøDé-✓`));
    await typeInTerminal(again, `echo again-$((${n}+2))\n`);
    await waitForScreen(again, new RegExp(`again-${n + 2}`));
    expect(await screenText(again)).toMatch(new RegExp(`hello-${n + 1}`));
  }, 180_000);

  it('copies the selection with Ctrl+Shift+C, pastes with Ctrl+Shift+V, and lets the focus out with Escape then Tab', async () => {
    const bed = await workerBed(web);
    orgs.push(bed.org);
    const page = await signedInPage(web, bed.owner);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: web.url,
    });
    await page.goto(bed.page);
    const n = marker();
    await typeInTerminal(page, `echo copy-$((${n}+1))\n`);
    await waitForScreen(page, new RegExp(`copy-${n + 1}`));

    // The output line, selected by a triple click, goes to the clipboard (not Ctrl+C's interrupt).
    const line = page
      .locator('.xterm-rows > div')
      .filter({ hasText: new RegExp(`^copy-${n + 1}\\s*$`) });
    // The screen above the rows takes the mouse: click where the line is.
    const box = await line.boundingBox();
    if (box === null) throw new Error('the output line is not on the screen');
    await page.mouse.click(box.x + 4, box.y + box.height / 2, { clickCount: 3 });
    await page.keyboard.press('Control+Shift+C');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toMatch(new RegExp(`^copy-${n + 1}\\s*$`));

    // What the clipboard holds is typed into the session.
    await page.evaluate((text) => navigator.clipboard.writeText(text), `echo pasted-$((${n}*2))`);
    await page.getByRole('textbox', { name: 'Terminal input' }).focus();
    await page.keyboard.press('Control+Shift+V');
    await page.keyboard.press('Enter');
    await waitForScreen(page, new RegExp(`pasted-${n * 2}`));

    // Tab belongs to the shell; Escape then Tab leaves the terminal, Escape then Shift+Tab comes back.
    const input = page.getByRole('textbox', { name: 'Terminal input' });
    const inTerminal = () => input.evaluate((element) => element === document.activeElement);
    await page.keyboard.press('Tab');
    expect(await inTerminal()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect.poll(inTerminal).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(inTerminal).toBe(true);
  }, 180_000);
});
