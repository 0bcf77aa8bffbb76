import type Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { type GitServer, startGitServer } from '../test/helpers/git-server.js';
import { addMember, createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';
import { engine, localNode, removeContainersOf } from './worker-helpers.js';

const web = useBrowserApp(
  (url) => ({ SECRETS_KEY: TEST_SECRETS_KEY, LOCAL_AGENT: 'true', PORT: new URL(url).port }),
  { background: true },
);

/** Workers clone and start containers on a busy machine: generous, but never a fixed sleep. */
const SETTLE = { timeout: 90_000 };

function stateOf(page: Page) {
  return page.getByRole('status', { name: /^State: / });
}

async function waitForState(page: Page, state: string) {
  await page.getByRole('status', { name: `State: ${state}` }).waitFor(SETTLE);
}

describe('a worker in the dashboard, on the real engine', () => {
  let docker: Docker;
  let repo: GitServer;
  const orgs: TestOrg[] = [];
  beforeAll(async () => {
    docker = await engine();
    repo = await startGitServer();
  });
  afterAll(async () => {
    await removeContainersOf(docker, orgs);
    await repo.close();
  });

  it('is spawned from its project, moves live, shows its logs, stats, git status, ports and an SSH token, and is deleted', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Workshop');
    orgs.push(org);
    const as = { token: owner.token };
    const project = await web.t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'api', repositories: [{ url: repo.url }], forwardPorts: [8080] },
      as,
    );
    expect(project.status, project.text).toBe(201);
    const workers = `/orgs/${org.id}/projects/${project.body.id}/workers` as const;
    const nodeId = await localNode(web, org, owner);
    // A node that never connected: choosing it is refused in words.
    const offline = await web.t.api.post(`/orgs/${org.id}/nodes`, { name: 'rack-9' }, as);
    expect(offline.status, offline.text).toBe(201);

    // A first worker through the API; its page shows it reach ready without a reload.
    const first = await web.t.api.post(workers, { name: 'first' }, as);
    expect(first.status, first.text).toBe(201);
    const page = await signedInPage(web, owner);
    await page.goto(`/app${workers}/${first.body.id}`);
    await page.getByRole('heading', { level: 1, name: 'first' }).waitFor();
    await stateOf(page).waitFor();
    await waitForState(page, 'ready');

    // The project's workers list it, and spawn another: refused on an offline node, then placed.
    const list = page.getByRole('list', { name: 'Workers of the project' });
    await list.getByRole('link', { name: /first.*ready/ }).waitFor();
    await page.getByLabel('Worker name', { exact: true }).fill('second');
    await page.getByLabel('Branch', { exact: true }).fill('feature');
    await page.getByLabel('Node', { exact: true }).selectOption({ label: 'rack-9 (offline)' });
    await page.getByRole('button', { name: 'Spawn worker' }).click();
    await page.getByText('The node is offline, draining or full').waitFor();
    expect(await page.getByLabel('Node', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await screenshot(page, 'worker-spawn-refused');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page
      .getByLabel('Node', { exact: true })
      .selectOption({ label: 'local (online, shared)' });
    await page.getByRole('button', { name: 'Spawn worker' }).click();
    await page.getByRole('heading', { level: 1, name: 'second' }).waitFor();
    const secondId = /\/workers\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(secondId).toBeDefined();
    const second = `${workers}/${secondId}` as const;
    await waitForState(page, 'ready');
    const spawned = await web.t.api.get(second, as);
    expect(spawned.body).toMatchObject({
      name: 'second',
      branch: 'feature',
      nodeId,
      state: 'ready',
    });
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('feature', { exact: true }).waitFor();
    await details.getByText('/workspaces/project').waitFor();
    await details.getByRole('link', { name: /^http:\/\/127\.0\.0\.1:\d+$/ }).waitFor();
    await page.getByRole('link', { name: 'Open terminal' }).waitFor();

    // Stop, then start: the state moves on the page as the API moves it.
    expect(await page.getByRole('button', { name: 'Start' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Stop' }).click();
    await waitForState(page, 'stopped');
    expect((await web.t.api.get(second, as)).body.state).toBe('stopped');
    expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Start' }).click();
    await waitForState(page, 'ready');
    expect((await web.t.api.get(second, as)).body.state).toBe('ready');

    // Logs: the tail shows a line the container printed; followed, a new one appears.
    const exec = async (command: string, background = false) => {
      const run = await web.t.api.post(`${second}/exec`, { command, background }, as);
      expect(run.status, run.text).toBe(background ? 202 : 200);
    };
    await exec('echo tail-line-one > /proc/1/fd/1');
    const logs = page.getByRole('log', { name: 'Container logs' });
    await page.getByRole('button', { name: 'Refresh logs' }).click();
    await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain('tail-line-one');
    await page.getByRole('button', { name: 'Follow' }).click();
    await page.getByText('Following: new lines appear as they are written.').waitFor();
    await exec('echo followed-line-two > /proc/1/fd/1');
    await expect.poll(() => logs.textContent(), { timeout: 10_000 }).toContain('followed-line-two');

    // Stats: the chart draws once two samples came, with the values in words.
    const stats = page.getByRole('region', { name: 'CPU and memory' });
    await stats.getByText(/^Memory \d+\.\d MB/).waitFor();
    await stats.locator('polyline').first().waitFor();

    // Git status: a changed file of the checkout.
    await exec('echo change >> /workspaces/project/README.md');
    await page.getByRole('button', { name: 'Refresh git status' }).click();
    const git = page.getByRole('region', { name: 'Git status' });
    await git
      .getByRole('list', { name: 'Changed files in /workspaces/project' })
      .getByText('README.md')
      .waitFor();
    await git.getByText(/On feature/).waitFor();

    // Ports: a process listening on the forwarded port, with its public URL as a link.
    await exec('git daemon --reuseaddr --base-path=/tmp --port=8080 /tmp', true);
    const ports = page.getByRole('list', { name: 'Ports listened on' });
    await ports.getByText('8080', { exact: true }).waitFor({ timeout: 20_000 });
    const url = (await web.t.api.get(second, as)).body.urls[0];
    await ports.getByRole('link', { name: url }).waitFor();

    // An SSH token: shown once, with the command that uses it.
    await page.getByRole('button', { name: 'Generate SSH token' }).click();
    const shown = page.getByRole('region', { name: 'The SSH token' });
    const command = (await shown.locator('code').textContent()) ?? '';
    expect(command).toMatch(
      new RegExp(
        `^websocat -H 'Authorization: Bearer sst_\\S+' 'ws://127\\.0\\.0\\.1:\\d+/api/workers/${secondId}/terminal'$`,
      ),
    );
    await screenshot(page, 'worker-page');
    expect(await accessibilityViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.getByText(/sst_/).count()).toBe(0);

    // A member sees another's worker, live, but is told who may act on it (the API would refuse).
    const member = await addMember(web.t, org, owner, 'member');
    const theirs = await signedInPage(web, member);
    await theirs.goto(`/app${workers}/${first.body.id}`);
    await theirs.getByRole('status', { name: 'State: ready' }).waitFor();
    await theirs
      .getByText('Only the person who spawned this worker, or an owner or admin')
      .waitFor();
    expect(await theirs.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(await theirs.getByRole('button', { name: 'Generate SSH token' }).count()).toBe(0);
    const refused = await web.t.api.post(`${workers}/${first.body.id}/stop`, undefined, {
      token: member.token,
    });
    expect(refused.status).toBe(403);
    expect(await accessibilityViolations(theirs)).toEqual([]);

    // Delete: asked first, then back on the project, and gone from the API.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete second?' });
    await dialog.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete worker' }).click();
    await page.waitForURL(`**/app/orgs/${org.id}/projects/${project.body.id}`);
    await expect.poll(async () => (await web.t.api.get(second, as)).status, SETTLE).toBe(404);
    const gone = await web.t.api.delete(`${workers}/${first.body.id}?wait=true`, as);
    expect(gone.status, gone.text).toBe(204);
  }, 420_000);
});
