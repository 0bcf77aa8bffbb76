import type { ChildProcess } from 'node:child_process';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAgent } from '../test/helpers/agent-process.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { connectTestEngine } from '../test/helpers/engine.js';
import { createUser } from '../test/helpers/factories.js';
import { removeOrgContainers } from '../test/helpers/nodes.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });
const LONG = { timeout: 90_000 };

describe('a node whose agent connects, in the dashboard, on the real engine', () => {
  let docker: Docker;
  let agent: ChildProcess | undefined;
  let org: TestOrg | undefined;
  beforeAll(async () => {
    docker = await connectTestEngine();
  });
  afterAll(async () => {
    agent?.kill('SIGTERM');
    if (org !== undefined) await removeOrgContainers(docker, org);
  });

  it('goes online live, lists its containers, and refuses deletion while it holds a worker', async () => {
    const owner = await createUser(web.t);
    org = await createOrg(web.t, owner, 'Foundry');
    const as = { token: owner.token };
    const registered = await web.t.api.post(`/orgs/${org.id}/nodes`, { name: 'rack-7' }, as);
    expect(registered.status, registered.text).toBe(201);
    const nodeId: string = registered.body.node.id;

    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/nodes/${nodeId}`);
    const heading = page.getByRole('heading', { level: 1, name: /rack-7/ });
    await heading.locator('[data-state="offline"]').waitFor();
    await page
      .getByText('No agent is connected, so its containers cannot be listed now.')
      .waitFor();

    // The agent starts on this machine: the page sees it online and asks it for its containers.
    agent = spawnAgent(web.url, registered.body.token);
    await heading.locator('[data-state="online"]').waitFor(LONG);
    await page.getByText('No container here.').waitFor(LONG);

    // A worker placed on it shows in its inventory without a reload.
    const project = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'api' }, as);
    expect(project.status, project.text).toBe(201);
    const workers = `/orgs/${org.id}/projects/${project.body.id}/workers` as const;
    const worker = await web.t.api.post(
      workers,
      { name: 'on-rack', nodeId },
      { ...as, query: { wait: 'true' } },
    );
    expect(worker.body.state, worker.text).toBe('ready');
    const containers = page.getByRole('table', { name: 'Containers on the node' });
    const link = containers.getByRole('link', {
      name: 'Worker on-rack (ready)',
    });
    await link.waitFor(LONG);
    await screenshot(page, 'org-admin-node-online');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The worker's page is a click away, and back.
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'on-rack' }).waitFor();
    await page.goBack();
    await heading.waitFor();

    // Deleting the node is refused while it holds the worker, in words, in the dialog.
    await page.getByRole('button', { name: 'Delete rack-7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete rack-7?' });
    await dialog.getByRole('button', { name: 'Delete node' }).click();
    await dialog
      .getByText(/worker/i)
      .last()
      .waitFor();
    const refusal = await web.t.api.delete(`/orgs/${org.id}/nodes/${nodeId}`, as);
    expect(refusal.status).toBe(409);
    expect(refusal.body.error.code).toBe('node_has_workers');
    expect(await dialog.textContent()).toContain(refusal.body.error.message);
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Once the worker is gone, the node is deleted and its agent let go.
    const gone = await web.t.api.delete(`${workers}/${worker.body.id}`, {
      ...as,
      query: { wait: 'true' },
    });
    expect(gone.status, gone.text).toBe(204);
    await page.getByRole('button', { name: 'Delete rack-7' }).click();
    await page
      .getByRole('dialog', { name: 'Delete rack-7?' })
      .getByRole('button', { name: 'Delete node' })
      .click();
    await page.getByText('No node yet.').waitFor();
    expect((await web.t.api.get(`/orgs/${org.id}/nodes/${nodeId}`, as)).status).toBe(404);
  }, 300_000);
});
