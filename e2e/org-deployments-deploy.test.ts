import type Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEndpoint } from '../src/agent/engine.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { BUSYBOX_IMAGE, connectTestEngine, testEngineEndpoint } from '../test/helpers/engine.js';
import { createUser, type TestUser } from '../test/helpers/factories.js';
import { removeOrgContainers } from '../test/helpers/nodes.js';
import { addMember, createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';
import { typeInTerminal, waitForScreen } from './org-terminals-helpers.js';

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

/** busybox httpd on `port` serving `/index.html` with the text `page`. */
function site(port: number, page: string): string {
  return `mkdir -p /www && echo "${page}" > /www/index.html && exec httpd -f -p ${port} -h /www`;
}

let docker: Docker;
let owner: TestUser;
let member: TestUser;
let org: TestOrg;

beforeAll(async () => {
  docker = await connectTestEngine();
  owner = await createUser(web.t, { name: 'Olive Owner' });
  org = await createOrg(web.t, owner, 'Deploy Org');
  member = await addMember(web.t, org, owner, 'member');
});

afterAll(async () => {
  if (docker !== undefined && org !== undefined) await removeOrgContainers(docker, org);
});

type ServicePath = `/orgs/${string}/deployments/${string}/services/${string}`;

async function serviceOf(path: ServicePath) {
  const answer = await web.t.api.get(path, { token: owner.token });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** The run panel's outcome once the run ended. */
function outcome(page: Page) {
  return page.getByRole('status').filter({ hasText: /^Outcome:/ });
}

describe('a deployment in the dashboard, on the real engine', () => {
  it('is created, its image service deployed and followed to a healthy switch, then a failing check rolled back', async () => {
    // The built-in agent dials in once the server listens: deploys need the node online.
    await expect
      .poll(async () => {
        const nodes = await web.t.api.get(`/orgs/${org.id}/nodes`, { token: owner.token });
        return nodes.body.find((node: { name: string }) => node.name === 'local')?.status;
      }, LONG)
      .toBe('online');
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/deployments`);
    await page.getByText('No deployment yet.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'deployments-empty');

    // A blank name is refused next to the field.
    await page.getByLabel('Deployment name').fill('   ');
    await page.getByRole('button', { name: 'Create deployment' }).click();
    const name = page.getByLabel('Deployment name');
    await expect.poll(() => name.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    await page.getByLabel('Deployment name').fill('Shop');
    await page.getByLabel('Description').fill('The storefront');
    await page.getByRole('button', { name: 'Create deployment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Shop' }).waitFor();
    const deploymentId = /\/deployments\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(deploymentId).toBeDefined();
    await page.getByText('No service yet.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A port out of range is refused in words under the Port field.
    await page.getByLabel('Service name').fill('web');
    await page.getByLabel('Image', { exact: true }).fill(BUSYBOX_IMAGE);
    const port = page
      .getByRole('form', { name: 'New service' })
      .getByLabel('Port', { exact: true });
    await port.fill('70000');
    await page.getByRole('button', { name: 'Add service' }).click();
    await expect.poll(() => port.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const describedBy = String(await port.getAttribute('aria-describedby'));
    const portError = page.locator(`[id="${describedBy.split(' ').pop()}"]`);
    expect(await portError.textContent()).toMatch(/65535/);
    await port.fill('8080');
    await page.getByRole('button', { name: 'Add service' }).click();
    await page.getByRole('heading', { level: 1, name: 'web' }).waitFor();
    const serviceId = /\/services\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    const servicePath: ServicePath = `/orgs/${org.id}/deployments/${deploymentId}/services/${serviceId}`;

    // Settings: a command and a health check; only those are sent.
    const settings = page.getByRole('form', { name: 'Service settings' });
    await settings.getByLabel('Command', { exact: true }).fill(site(8080, 'version one'));
    await settings.getByText('Check health with an HTTP GET').click();
    await settings.getByLabel('Health check path').fill('/index.html');
    await settings.getByLabel('Grace (seconds)').fill('30');
    await settings.getByText('Changed: command, healthCheck.').waitFor();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    const saved = await serviceOf(servicePath);
    expect(saved).toMatchObject({
      command: site(8080, 'version one'),
      healthCheck: { path: '/index.html', graceSeconds: 30 },
      port: 8080,
    });

    // Deploy, followed live to its outcome.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByRole('log', { name: 'Run output' }).waitFor();
    await outcome(page).filter({ hasText: 'Switched' }).waitFor(LONG);
    await page.locator('h1 + [data-state="running"]').waitFor(LONG);
    const running = await serviceOf(servicePath);
    expect(running).toMatchObject({ state: 'running' });
    expect(running.activeRunId).not.toBeNull();
    await screenshot(page, 'service-deployed');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The URL, as linked, answers with the deployed page.
    const url = await page.getByRole('link', { name: running.url }).getAttribute('href');
    expect(url).toBe(running.url);
    const site1 = await web.page();
    await site1.goto(String(url));
    await site1.getByText('version one').waitFor();

    // A shell in the running replica, from the service page: it sees the deployed files.
    await page.getByRole('link', { name: 'Shell', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Shell in web' }).waitFor();
    await typeInTerminal(page, 'cat /www/index.html; echo shell-$((6*7))\n');
    await waitForScreen(page, /version one[\s\S]*shell-42/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'service-shell');
    await page.getByRole('link', { name: 'Back to the service' }).click();
    await page.getByRole('heading', { level: 1, name: 'web' }).waitFor();

    // A failing health check: rolled back with the reason; the first version keeps serving.
    await settings.getByLabel('Command', { exact: true }).fill(site(8080, 'version two'));
    await settings.getByLabel('Health check path').fill('/missing');
    await settings.getByLabel('Grace (seconds)').fill('3');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await outcome(page).filter({ hasText: 'Rolled back' }).waitFor(LONG);
    const after = await serviceOf(servicePath);
    expect(after.state).toBe('running');
    expect(after.activeRunId).toBe(running.activeRunId);
    expect(after.stateReason).toBeTruthy();
    await page
      .getByTestId('state-reason')
      .filter({ hasText: String(after.stateReason) })
      .waitFor(LONG);
    await site1.reload();
    await site1.getByText('version one').waitFor();
    await screenshot(page, 'service-rolled-back');

    // Private, with an allowlist of one member.
    await settings.getByText('Private: members of the organization').click();
    await settings.getByLabel(new RegExp(member.user.email)).check();
    await settings.getByText('Changed: accessControl, allowlist.', { exact: false }).waitFor();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    expect(await serviceOf(servicePath)).toMatchObject({
      accessControl: 'private',
      allowlist: [member.user.id],
    });

    // A cron job, saved, then run now: its run shows in the job runs.
    await settings.getByRole('button', { name: 'Add cron job' }).click();
    await settings.getByLabel('Cron job 1 name').fill('report');
    await settings.getByLabel('Cron job 1 schedule').fill('0 0 1 1 *');
    await settings.getByLabel('Cron job 1 command').fill('echo monthly report');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('button', { name: 'Run report now' }).click();
    await outcome(page).filter({ hasText: 'Succeeded' }).waitFor(LONG);
    await page.getByRole('log', { name: 'Run output' }).getByText('monthly report').waitFor();
    const runs = page.getByRole('list', { name: 'Runs' });
    await runs.getByText('cron report').waitFor();
    const listed = await web.t.api.get(`/orgs/${org.id}/deployments/${deploymentId}/job-runs`, {
      token: owner.token,
      query: { kind: ['cron'] },
    });
    expect(listed.body.runs).toMatchObject([
      { kind: 'cron', jobName: 'report', status: 'succeeded' },
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'service-cron-run');
  }, 300_000);
});
