import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createEngine,
  describeEndpoint,
  parseDockerHost,
  SPARROW_PODMAN_SOCKET,
} from '../src/agent/engine.js';
import { present } from '../test/helpers/assert.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { allEvents } from '../test/helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { cardWorkspace, readCard, signedInPage } from './card-helpers.js';

// The test engine (as the engine tests find it), which the server's built-in agent drives.
const engine = parseDockerHost(process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`);
const web = useBrowserApp(
  (url) => ({
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOCAL_AGENT: 'true',
    LOCAL_AGENT_DOCKER_HOST: describeEndpoint(engine),
    PORT: new URL(url).port,
  }),
  { background: true },
);
const describeEngine = process.env.SPARROW_SKIP_ENGINE_TESTS === '1' ? describe.skip : describe;

/** The organizations whose containers this file leaves behind if a test fails midway. */
const orgs: TestOrg[] = [];
afterAll(async () => {
  const docker = createEngine(engine);
  for (const org of orgs) {
    const containers = await docker.listContainers({
      all: true,
      filters: { label: [`sparrow.org=${org.id}`] },
    });
    await Promise.all(
      containers.map((c) =>
        docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
  }
});

/** The shared built-in node, once its agent has dialled in. */
async function waitForLocalNode(orgId: string, token: string) {
  await expect
    .poll(
      async () => {
        const nodes = await web.t.api.get(`/orgs/${orgId}/nodes`, { token });
        return nodes.body.find((node: { name: string }) => node.name === 'local')?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('online');
}

async function openWorkerByKeyboard(page: Page) {
  await page.keyboard.press('Control+k');
  await page.keyboard.type('Open a worker');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: /Open a worker/ }).waitFor();
}

describeEngine('a card that opens a worker', () => {
  it('spawns one on a branch named from the card, records the link in the body and shows its state live', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const org = await createOrg(web.t, owner, 'Acme');
    orgs.push(org);
    const as = { token: owner.token };
    const project = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'site' }, as);
    expect(project.status, project.text).toBe(201);
    // Listed first (by name): the dialog offers it until a worker came from another.
    const other = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'api' }, as);
    expect(other.status, other.text).toBe(201);
    await waitForLocalNode(org.id, owner.token);

    const page = await signedInPage(web, owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const workers = page.getByRole('region', { name: 'Workers' });
    await workers.getByText('No worker yet.').waitFor();
    // Something typed in the body, not yet saved when the worker opens: it must survive the append.
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('Notes before the worker');

    await openWorkerByKeyboard(page);
    const dialog = page.getByRole('dialog');
    const branch = dialog.getByRole('textbox', { name: 'Branch' });
    expect(await branch.inputValue()).toBe('rm-1-launch-the-site');
    expect(await dialog.getByLabel('Organization').inputValue()).toBe(org.id);
    expect(await dialog.getByLabel('Project').inputValue()).toBe(other.body.id);
    await dialog.getByLabel('Project').selectOption(project.body.id);
    expect(await dialog.getByLabel('Node').inputValue()).toBe('');
    await screenshot(page, 'card-worker-dialog');
    expect(await accessibilityViolations(page)).toEqual([]);
    await branch.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // Focus is back on the button that opens a worker, never in the editor just changed.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Open a worker');

    // The worker's state on the card moves on its own to ready.
    const badge = workers.locator('[data-state]');
    await badge.waitFor({ timeout: 10_000 });
    await expect.poll(() => badge.getAttribute('data-state'), { timeout: 90_000 }).toBe('ready');
    const spawned = await web.t.api.get(`/orgs/${org.id}/projects/${project.body.id}/workers`, as);
    expect(spawned.body).toHaveLength(1);
    const worker = present(spawned.body[0], 'the spawned worker');
    expect(worker).toMatchObject({ branch: 'rm-1-launch-the-site', state: 'ready' });
    const workerPath = `/orgs/${org.id}/projects/${project.body.id}/workers/${worker.id}`;
    expect(
      await workers.getByRole('link', { name: worker.name, exact: true }).getAttribute('href'),
    ).toBe(`/app${workerPath}`);
    expect(
      await workers.getByRole('link', { name: `Terminal of ${worker.name}` }).getAttribute('href'),
    ).toBe(`/app${workerPath}/terminal`);
    await page
      .getByRole('link', { name: `Worker ${worker.name} (rm-1-launch-the-site)` })
      .waitFor();
    await screenshot(page, 'card-worker-ready');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The body holds what was typed and the link, through the content API, and the log has the change.
    const href = `${web.url}/app${workerPath}`;
    await expect
      .poll(async () => JSON.stringify((await readCard(web, workspace, item.id)).body.blocks))
      .toContain(href);
    const saved = (await readCard(web, workspace, item.id)).body;
    expect(saved.body).toContain('Notes before the worker');
    expect(saved.blocks.blocks.at(-1)).toEqual({
      type: 'paragraph',
      content: [
        {
          type: 'link',
          href,
          content: [{ type: 'text', text: `Worker ${worker.name} (rm-1-launch-the-site)` }],
        },
      ],
    });
    const changes = (await allEvents(web.t, workspace, { type: 'item.updated' })).filter(
      (event) => event.resource.id === item.id,
    );
    expect(changes.some((event) => JSON.stringify(event.changes).includes(href))).toBe(true);

    // Deleted elsewhere: the card says so in words.
    const removed = await web.t.api.delete(workerPath, { ...as, query: { wait: 'true' } });
    expect(removed.status).toBe(204);
    await workers.getByText('deleted', { exact: true }).waitFor({ timeout: 10_000 });

    // The next worker starts from the project the last one came from.
    await page.getByRole('button', { name: 'Open a worker' }).click();
    const again = page.getByRole('dialog', { name: /Open a worker/ });
    await expect.poll(() => again.getByLabel('Project').inputValue()).toBe(project.body.id);
    await again.getByRole('button', { name: 'Cancel' }).click();
  }, 240_000);
});

describe('a card for a person in no organization', () => {
  it('says in words that there is no organization to open a worker from', async () => {
    const { workspace, item } = await cardWorkspace(web);
    const page = await signedInPage(web, workspace.owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    await page.getByRole('button', { name: 'Open a worker' }).click();
    const dialog = page.getByRole('dialog', { name: /Open a worker/ });
    await dialog.getByText('You are not a member of any organization').waitFor();
    await screenshot(page, 'card-worker-no-org');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  }, 120_000);
});
