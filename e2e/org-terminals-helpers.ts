import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createEngine, parseDockerHost, SPARROW_PODMAN_SOCKET } from '../src/agent/engine.js';
import type { BrowserApp } from '../test/helpers/browser.js';
import { createUser, type TestUser } from '../test/helpers/factories.js';
import { removeOrgContainers } from '../test/helpers/nodes.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';

/** This machine's engine, as the engine tests reach it. */
export const ENGINE_HOST = process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`;

/** The server's settings: its built-in agent on this machine's engine (the shared node `local`). */
export const localAgentEnv = (url: string) => ({
  SECRETS_KEY: TEST_SECRETS_KEY,
  LOCAL_AGENT: 'true',
  LOCAL_AGENT_DOCKER_HOST: ENGINE_HOST,
  PORT: new URL(url).port,
});

const PATIENCE = { timeout: 60_000, interval: 200 };

export interface TerminalBed {
  owner: TestUser;
  org: TestOrg;
  projectId: string;
  workerId: string;
  /** The worker's terminal page, under /app. */
  page: string;
  /** The API path of its terminal sessions. */
  sessions: string;
}

/** An owner, an organization and a project with a ready worker on the built-in node. */
export async function workerBed(web: BrowserApp): Promise<TerminalBed> {
  const owner = await createUser(web.t);
  const org = await createOrg(web.t, owner, 'Terminals');
  const as = { token: owner.token };
  await expect
    .poll(async () => {
      const nodes = await web.t.api.get(`/orgs/${org.id}/nodes`, as);
      return nodes.body.find((node: { name: string }) => node.name === 'local')?.status;
    }, PATIENCE)
    .toBe('online');
  const project = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'shell' }, as);
  expect(project.status, project.text).toBe(201);
  const workers = `/orgs/${org.id}/projects/${project.body.id}/workers` as const;
  const worker = await web.t.api.post(workers, {}, { ...as, query: { wait: 'true' } });
  expect(worker.body.state, worker.text).toBe('ready');
  return {
    owner,
    org,
    projectId: project.body.id,
    workerId: worker.body.id,
    page: `/app/orgs/${org.id}/projects/${project.body.id}/workers/${worker.body.id}/terminal`,
    sessions: `/orgs/${org.id}/projects/${project.body.id}/workers/${worker.body.id}/terminals`,
  };
}

/** Removes the organizations' containers (the workers' deletion through the API may not have run). */
export async function removeContainers(orgs: readonly TestOrg[]): Promise<void> {
  const docker = createEngine(parseDockerHost(ENGINE_HOST));
  for (const org of orgs) await removeOrgContainers(docker, org);
}

/** The screen's text as the terminal shows it (xterm's rows; non-breaking spaces as spaces). */
export async function screenText(page: Page): Promise<string> {
  const text = await page.locator('.xterm-rows').innerText();
  return text.replaceAll('\u00a0', ' ');
}

/** Waits until the terminal's screen shows what matches. */
export async function waitForScreen(page: Page, pattern: RegExp): Promise<string> {
  await expect.poll(() => screenText(page), { timeout: 20_000, interval: 100 }).toMatch(pattern);
  return screenText(page);
}

/** Waits for the connection to say it is connected, then types into the terminal. */
export async function typeInTerminal(page: Page, text: string): Promise<void> {
  await page.getByRole('status').getByText('Connected.').waitFor();
  await page.getByRole('textbox', { name: 'Terminal input' }).focus();
  await page.keyboard.type(text);
}

/** A distinctive number for one test's output. */
export function marker(): number {
  return 1000 + Math.floor(Math.random() * 9000);
}
