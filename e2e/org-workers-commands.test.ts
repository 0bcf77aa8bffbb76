import { afterAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import type { TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';
import { localAgentEnv, marker, removeContainers, workerBed } from './org-terminals-helpers.js';

const web = useBrowserApp(localAgentEnv, { background: true });
const orgs: TestOrg[] = [];
afterAll(() => removeContainers(orgs));

const PATIENCE = { timeout: 30_000 };

describe("a worker's commands in the browser", () => {
  it('runs one and shows its exit code and output; runs others in the background, follows and cancels them', async () => {
    const bed = await workerBed(web);
    orgs.push(bed.org);
    const page = await signedInPage(web, bed.owner);
    await page.goto(bed.page.replace(/\/terminal$/, ''));
    const section = page.getByRole('region', { name: 'Commands' });
    await section.waitFor();

    // Waited for: its exit code, and each stream in its own pane.
    const n = marker();
    const command = section.getByLabel('Command', { exact: true });
    await command.fill(`echo out-$((${n}+1)); echo err-${n} >&2; exit 3`);
    await section.getByRole('button', { name: 'Run', exact: true }).click();
    await section
      .getByRole('status')
      .getByText(/^Exited with 3 in \d+ ms\.$/)
      .waitFor(PATIENCE);
    expect(await section.getByRole('log', { name: 'Standard output' }).textContent()).toBe(
      `out-${n + 1}\n`,
    );
    expect(await section.getByRole('log', { name: 'Standard error' }).textContent()).toBe(
      `err-${n}\n`,
    );
    expect(await command.inputValue()).toContain('exit 3');
    expect(await accessibilityViolations(page)).toEqual([]);

    // In the background: listed at once, its output followed until it exits.
    await section.getByText('In the background (it keeps running').click();
    const ticks = `for i in 1 2 3; do echo tick-$i; sleep 1; done`;
    await command.fill(ticks);
    await section.getByRole('button', { name: 'Run', exact: true }).click();
    const list = section.getByRole('list', { name: 'Background commands' });
    const ticking = list.getByRole('listitem').filter({ hasText: ticks });
    await ticking.waitFor(PATIENCE);
    expect(await command.inputValue()).toBe('');
    await ticking.getByRole('button', { name: `Show output of ${ticks}` }).click();
    const output = ticking.getByRole('log', { name: `Output of ${ticks}` });
    await expect.poll(() => output.textContent(), PATIENCE).toBe('tick-1\ntick-2\ntick-3\n');
    await ticking.locator('[data-state="exited"]').waitFor(PATIENCE);
    await ticking.getByText(/exit 0/).waitFor();

    // A long one, cancelled from the list.
    await command.fill('sleep 600');
    await section.getByRole('button', { name: 'Run', exact: true }).click();
    const sleeping = list.getByRole('listitem').filter({ hasText: 'sleep 600' });
    await sleeping.locator('[data-state="running"]').waitFor(PATIENCE);
    await screenshot(page, 'worker-commands');
    expect(await accessibilityViolations(page)).toEqual([]);
    await sleeping.getByRole('button', { name: 'Cancel sleep 600' }).click();
    await sleeping.locator('[data-state="cancelled"]').waitFor(PATIENCE);
    const listed = await web.t.api.get(
      `/orgs/${bed.org.id}/projects/${bed.projectId}/workers/${bed.workerId}/commands`,
      { token: bed.owner.token },
    );
    expect(listed.body.map((info) => info.state).sort()).toEqual(['cancelled', 'exited']);
  }, 240_000);
});
