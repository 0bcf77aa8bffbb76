import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import type Docker from 'dockerode';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEndpoint } from '../src/agent/engine.js';
import { commitContainer, removeImage } from '../src/agent/images.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { BUSYBOX_IMAGE, connectTestEngine, testEngineEndpoint } from '../test/helpers/engine.js';
import { createUser, type TestUser } from '../test/helpers/factories.js';
import { removeOrgContainers } from '../test/helpers/nodes.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';
import { localNode } from './worker-helpers.js';

// The server runs its built-in agent on this machine's engine: deploys place real containers.
const web = useBrowserApp(
  (url) => ({
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOCAL_AGENT: 'true',
    LOCAL_AGENT_DOCKER_HOST: describeEndpoint(testEngineEndpoint()),
    PORT: new URL(url).port,
    SERVICE_DRAIN_MS: '1000',
    JOB_POLL_MS: '200',
  }),
  { background: true },
);

const LONG = { timeout: 90_000 };

/** Two versions of a site, each an image of its own: a redeploy of a run deploys its image. */
const REPOSITORY = `localhost/sparrow-test/flows-${randomBytes(4).toString('hex')}`;
const SERVE = 'exec httpd -f -p 8080 -h /www';
/** Prints a line when it starts, then waits (and stops at once when asked). */
const TICKER = `trap 'exit 0' TERM; echo "ticker up on $(hostname)"; while true; do sleep 1; done`;

let docker: Docker;
let owner: TestUser;
let org: TestOrg;
let deploymentId: string;
const images = { one: '', two: '' };
const ids = { web: '', ticker: '' };
let page: Page;

/** An image of busybox whose `/www/index.html` says `text`. */
async function siteImage(tag: string, text: string): Promise<string> {
  const container = await docker.createContainer({
    Image: BUSYBOX_IMAGE,
    Cmd: ['sh', '-c', `mkdir -p /www && echo "${text}" > /www/index.html`],
  });
  try {
    await container.start();
    await container.wait();
    const image = await commitContainer(docker, container.id, { repository: REPOSITORY, tag });
    return image.reference;
  } finally {
    await container.remove({ force: true });
  }
}

beforeAll(async () => {
  docker = await connectTestEngine();
  images.one = await siteImage('one', 'version one');
  images.two = await siteImage('two', 'version two');
  owner = await createUser(web.t, { name: 'Olive Owner' });
  org = await createOrg(web.t, owner, 'Flows Org');
  const as = { token: owner.token };
  const created = await web.t.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Flows', description: 'Moves, runs and logs' },
    as,
  );
  expect(created.status, created.text).toBe(201);
  deploymentId = created.body.id;
  const services = `/orgs/${org.id}/deployments/${deploymentId}/services` as const;
  const webService = await web.t.api.post(
    services,
    { name: 'web', source: { type: 'image', image: images.one }, command: SERVE, port: 8080 },
    as,
  );
  expect(webService.status, webService.text).toBe(201);
  ids.web = webService.body.id;
  const ticker = await web.t.api.post(
    services,
    { name: 'ticker', source: { type: 'image', image: BUSYBOX_IMAGE }, command: TICKER },
    as,
  );
  expect(ticker.status, ticker.text).toBe(201);
  ids.ticker = ticker.body.id;
  // The built-in agent dials in once the server listens: deploys need the node online.
  await localNode(web, org, owner);
  page = await signedInPage(web, owner);
});

afterAll(async () => {
  if (docker === undefined) return;
  if (org !== undefined) await removeOrgContainers(docker, org);
  for (const image of Object.values(images)) {
    if (image !== '') await removeImage(docker, image).catch(() => false);
  }
});

async function deploymentOf() {
  const answer = await web.t.api.get(`/orgs/${org.id}/deployments/${deploymentId}`, {
    token: owner.token,
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function serviceOf(serviceId: string) {
  const answer = await web.t.api.get(
    `/orgs/${org.id}/deployments/${deploymentId}/services/${serviceId}`,
    { token: owner.token },
  );
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** The state word of a service in the deployment's list. */
function serviceBadge(name: string, state: string): Locator {
  return page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) })
    .locator(`[data-state="${state}"]`);
}

/** The deployment's (or service's) own state, beside its heading. */
function headingBadge(state: string): Locator {
  return page.locator(`h1 + [data-state="${state}"]`);
}

/** Waits for both services, and the deployment summed up from them, to show `state`; the API agrees. */
async function everyServiceIs(state: string) {
  await serviceBadge('web', state).waitFor(LONG);
  await serviceBadge('ticker', state).waitFor(LONG);
  await headingBadge(state).waitFor(LONG);
  expect((await deploymentOf()).state).toBe(state);
  expect((await serviceOf(ids.web)).state).toBe(state);
  expect((await serviceOf(ids.ticker)).state).toBe(state);
}

/** The open run's panel, once its outcome reads `pattern`. */
function outcome(pattern: RegExp): Locator {
  return page.getByRole('status').filter({ hasText: pattern });
}

/**
 * What the service's URL answers: asked through the server with the URL's
 * Host, as a browser on the service domain does (no browser cache between).
 */
function fetchSite(url: string): Promise<string> {
  const { host, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = get(
      { host: '127.0.0.1', port: new URL(web.url).port, path: pathname, headers: { host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve(`${response.statusCode} ${body}`));
      },
    );
    request.on('error', reject);
  });
}

/** Waits until the service's URL answers with `text`. */
async function siteSays(url: string, text: string) {
  await expect.poll(() => fetchSite(url), LONG).toContain(text);
}

describe('a deployment’s flows in the dashboard, on the real engine', () => {
  it('moves every service with Deploy all, Stop all and Start all, live', async () => {
    await page.goto(`/app/orgs/${org.id}/deployments/${deploymentId}`);
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    await headingBadge('stopped').waitFor();
    await serviceBadge('web', 'stopped').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Deploy all' }).click();
    await everyServiceIs('running');
    await screenshot(page, 'flows-deployed-all');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Stop all' }).click();
    await everyServiceIs('stopped');
    expect((await serviceOf(ids.web)).activeRunId).toBeNull();
    await screenshot(page, 'flows-stopped-all');

    await page.getByRole('button', { name: 'Start all' }).click();
    await everyServiceIs('running');
    const web1 = await serviceOf(ids.web);
    expect(web1.activeRunId).not.toBeNull();
    await siteSays(web1.url, 'version one');
  }, 240_000);

  it('redeploys an earlier run of a service, and stops a deploy whose pre-deploy hook fails', async () => {
    await page.getByRole('link', { name: 'web', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'web' }).waitFor();
    const settings = page.getByRole('form', { name: 'Service settings' });
    const { url } = await serviceOf(ids.web);

    // Version two: a new image, deployed and followed to its switch.
    await settings.getByLabel('Image', { exact: true }).fill(images.two);
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await outcome(/^Outcome: Switched/).waitFor(LONG);
    await siteSays(url, 'version two');

    // The earlier run of version one, chosen among the service's deploys and deployed again.
    const earlier = page.getByLabel('Earlier deploy');
    const first = earlier.locator('option', { hasText: images.one }).first();
    await first.waitFor({ state: 'attached', ...LONG });
    const firstRunId = String(await first.getAttribute('value'));
    await earlier.selectOption(firstRunId);
    await page.getByRole('button', { name: 'Redeploy it' }).click();
    const again = page.locator('[data-run]').filter({ hasText: `Image ${images.one}` });
    await again
      .getByRole('log', { name: 'Run output' })
      .getByText('(deployed again)')
      .waitFor(LONG);
    await again
      .getByRole('status')
      .filter({ hasText: /^Outcome: Switched/ })
      .waitFor(LONG);
    await siteSays(url, 'version one');
    const redeployed = await serviceOf(ids.web);
    expect(redeployed.state).toBe('running');
    const run = await web.t.api.get(`/orgs/${org.id}/job-runs/${redeployed.activeRunId}`, {
      token: owner.token,
    });
    expect(run.body).toMatchObject({ kind: 'deploy', status: 'succeeded', image: images.one });
    expect(redeployed.activeRunId).not.toBe(firstRunId);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-redeployed');

    // A hook that exits 1: the deploy stops before the switch, in words, with the hook's output.
    await settings
      .getByText('Run a command in the new version before traffic moves (a migration)')
      .click();
    await settings.getByLabel('Hook command').fill('echo migrating the schema; exit 1');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    expect((await serviceOf(ids.web)).preDeploy).toMatchObject({
      command: 'echo migrating the schema; exit 1',
    });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await outcome(/^Outcome: Rolled back: pre-deploy hook exited with code 1/).waitFor(LONG);
    const output = page.getByRole('log', { name: 'Run output' });
    await output.getByText('migrating the schema', { exact: false }).first().waitFor();
    const refused = await serviceOf(ids.web);
    expect(refused.state).toBe('running');
    expect(refused.activeRunId).toBe(redeployed.activeRunId);
    expect(refused.stateReason).toMatch(/pre-deploy hook exited with code 1/);
    await page.getByTestId('state-reason').filter({ hasText: 'pre-deploy hook' }).waitFor(LONG);
    await siteSays(url, 'version one');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-hook-failed');

    // The hook's own run, opened from the runs list: failed, with its exit code and its output.
    const runs = page.getByRole('list', { name: 'Runs' });
    const hookRow = runs.getByRole('listitem').filter({ hasText: /^pre_deploy/ });
    await hookRow.locator('[data-state="failed"]').waitFor(LONG);
    await hookRow.getByRole('button', { name: /^Open pre_deploy run/ }).click();
    await outcome(/^Outcome: Failed: pre-deploy hook exited with code 1/).waitFor(LONG);
    await output.getByText('migrating the schema').waitFor();

    // A hook that succeeds lets the deploy switch.
    await settings.getByLabel('Hook command').fill('echo migrated');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await outcome(/^Outcome: Switched/).waitFor(LONG);
    await output.getByText('pre-deploy hook exited 0').waitFor();
    await siteSays(url, 'version two');
    const switched = await serviceOf(ids.web);
    expect(switched).toMatchObject({ state: 'running', stateReason: null });
    await screenshot(page, 'flows-hook-passed');
  }, 240_000);

  it('shows the last lines of each of two replicas, then follows one', async () => {
    await page.goto(`/app/orgs/${org.id}/deployments/${deploymentId}`);
    await page.getByRole('link', { name: 'ticker', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'ticker' }).waitFor();
    const settings = page.getByRole('form', { name: 'Service settings' });
    await settings.getByLabel('Replicas').fill('2');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await outcome(/^Outcome: Switched/).waitFor(LONG);
    const { activeRunId } = await serviceOf(ids.ticker);

    // Once the replaced replica is gone: the two new ones, each with the line it printed.
    const filters = { label: [`sparrow.service=${ids.ticker}`] };
    await expect
      .poll(async () => (await docker.listContainers({ all: true, filters })).length, LONG)
      .toBe(2);
    const containers = await docker.listContainers({
      filters: { label: [`sparrow.service=${ids.ticker}`, `sparrow.run=${activeRunId}`] },
    });
    expect(containers).toHaveLength(2);
    const logs = page.getByRole('log', { name: 'Service logs' });
    const refresh = page.getByRole('button', { name: 'Refresh logs' });
    // Replica after replica, oldest first: each one's line, and no third (the replaced one).
    await expect
      .poll(async () => {
        await refresh.click();
        return logs.textContent();
      }, LONG)
      .toMatch(/^\[r1 [0-9a-f]{6}\] ticker up on \S+\n\[r2 [0-9a-f]{6}\] ticker up on \S+\s*$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-logs-tail');

    // Followed: a line written now shows, prefixed with its replica.
    await page.getByRole('button', { name: 'Follow live' }).click();
    await page.getByRole('region', { name: 'Logs' }).getByText('following live').waitFor(LONG);
    const [a, b] = containers.map((container) => container.Id);
    if (a === undefined || b === undefined) throw new Error('two replicas expected');
    const mark = randomBytes(3).toString('hex');
    await printIn(a, `followed-${mark}`);
    await expect.poll(() => logs.textContent(), LONG).toMatch(`followed-${mark}`);
    const labelOfA = /\[(r\d [0-9a-f]{6})\] followed-/.exec(String(await logs.textContent()))?.[1];
    const labelOfB = (
      await page.getByLabel('Replica', { exact: true }).locator('option').allTextContents()
    ).find((label) => /^r\d/.test(label) && label !== labelOfA);
    console.log(
      'DEBUG',
      labelOfA,
      await page.getByLabel('Replica', { exact: true }).locator('option').allTextContents(),
      await logs.textContent(),
    );
    expect(labelOfA).toBeDefined();
    expect(labelOfB).toBeDefined();

    // One replica: its last lines, then its new ones; none of the other's.
    await page.getByLabel('Replica', { exact: true }).selectOption({ label: String(labelOfB) });
    await logs.getByText(`[${labelOfB}] ticker up on`).waitFor(LONG);
    await printIn(a, `only-a-${mark}`);
    await printIn(b, `only-b-${mark}`);
    await logs.getByText(`[${labelOfB}] only-b-${mark}`).waitFor(LONG);
    const lines = String(await logs.textContent())
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.every((line) => line.startsWith(`[${labelOfB}] `))).toBe(true);
    expect(lines.join('\n')).not.toContain(`only-a-${mark}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-logs-one-replica');
  }, 240_000);

  it('filters the job runs as the API does, and deletes the deployment once stopped', async () => {
    await page.goto(`/app/orgs/${org.id}/deployments/${deploymentId}`);
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    const runs = page.getByRole('list', { name: 'Runs' });
    const kinds = page.getByRole('group', { name: 'Kind' });
    const statuses = page.getByRole('group', { name: 'Status' });

    /** The runs listed on the page, newest first: kind and status. */
    const listed = () =>
      runs.getByRole('listitem').evaluateAll((items) =>
        items.map((item) => ({
          kind: /^(pre_deploy|deploy|cron)/.exec(item.textContent ?? '')?.[1],
          status: item.querySelector('[data-state]')?.getAttribute('data-state'),
        })),
      );
    /** The same from the API, with the same filter. */
    const answered = async (query: { kind?: string[]; status?: string[] }) => {
      const answer = await web.t.api.get(`/orgs/${org.id}/deployments/${deploymentId}/job-runs`, {
        token: owner.token,
        query,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.runs.map((run: { kind: string; status: string }) => ({
        kind: run.kind,
        status: run.status,
      }));
    };
    const agree = async (query: { kind?: string[]; status?: string[] }) => {
      const expected = await answered(query);
      await expect.poll(listed, LONG).toEqual(expected);
      return expected;
    };

    const every = await agree({});
    expect(every.length).toBeGreaterThanOrEqual(8);
    await kinds.getByLabel('pre_deploy').check();
    expect(await agree({ kind: ['pre_deploy'] })).toEqual([
      { kind: 'pre_deploy', status: 'succeeded' },
      { kind: 'pre_deploy', status: 'failed' },
    ]);
    await statuses.getByLabel('failed').check();
    expect(await agree({ kind: ['pre_deploy'], status: ['failed'] })).toHaveLength(1);
    await kinds.getByLabel('pre_deploy').uncheck();
    const failed = await agree({ status: ['failed'] });
    expect(failed.map((run: { kind: string }) => run.kind).sort()).toEqual([
      'deploy',
      'pre_deploy',
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-runs-filtered');
    await kinds.getByLabel('cron').check();
    expect(await agree({ kind: ['cron'], status: ['failed'] })).toEqual([]);
    await page.getByText('No run matches.').waitFor();
    await kinds.getByLabel('cron').uncheck();
    await statuses.getByLabel('failed').uncheck();
    await agree({});

    // Deleting while its services run is refused, in words, in the dialog.
    await page.getByRole('button', { name: 'Delete deployment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Flows?' });
    await dialog.getByLabel('Type “Flows” to confirm').fill('Flows');
    await dialog.getByRole('button', { name: 'Delete deployment' }).click();
    await dialog.getByText('The deployment still runs: stop it first').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'flows-delete-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await deploymentOf()).state).toBe('running');

    // Stopped, it goes: the list no longer has it, nor does the API.
    await page.getByRole('button', { name: 'Stop all' }).click();
    await everyServiceIs('stopped');
    await page.getByRole('button', { name: 'Delete deployment' }).click();
    await dialog.getByLabel('Type “Flows” to confirm').fill('Flows');
    await dialog.getByRole('button', { name: 'Delete deployment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deployments' }).waitFor();
    await page.getByText('No deployment yet.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const gone = await web.t.api.get(`/orgs/${org.id}/deployments/${deploymentId}`, {
      token: owner.token,
    });
    expect(gone.status).toBe(404);
    await expect
      .poll(
        async () =>
          (
            await docker.listContainers({
              all: true,
              filters: { label: [`sparrow.deployment=${deploymentId}`] },
            })
          ).length,
        LONG,
      )
      .toBe(0);
  }, 240_000);
});

/** Writes `line` to a replica's log, as its own process would. */
async function printIn(containerId: string, line: string) {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: ['sh', '-c', `echo ${line} > /proc/1/fd/1`],
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({});
  await new Promise<void>((resolve, reject) => {
    stream.on('end', () => resolve());
    stream.on('error', reject);
    stream.resume();
  });
}
