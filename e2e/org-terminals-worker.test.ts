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
});
