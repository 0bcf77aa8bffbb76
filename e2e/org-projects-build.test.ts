import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { connectTestEngine, WORKSPACE_IMAGE } from '../test/helpers/engine.js';
import { createUser } from '../test/helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp(
  (url) => ({
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOCAL_AGENT: 'true',
    WORKER_IMAGE: WORKSPACE_IMAGE,
    PORT: new URL(url).port,
  }),
  { background: true },
);

describe('a project’s image build in the dashboard', () => {
  let docker: Docker;
  const projectIds: string[] = [];
  beforeAll(async () => {
    docker = await connectTestEngine();
  });
  afterAll(async () => {
    for (const projectId of projectIds) {
      const images = await docker.listImages({
        filters: { reference: [`localhost/sparrow/project-${projectId}`] },
      });
      for (const image of images) await docker.getImage(image.Id).remove({ force: true });
    }
  });

  it('is started with a button and followed live, its steps and log, to the end', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const token = { token: owner.token };
    const created = await web.t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'built', features: { 'ghcr.io/devcontainers/features/go:1': {} } },
      token,
    );
    const projectId: string = created.body.id;
    projectIds.push(projectId);
    // The built-in agent's shared node comes online.
    await expect
      .poll(
        async () => {
          const nodes = await web.t.api.get(`/orgs/${org.id}/nodes`, token);
          return nodes.body.some(
            (node: { name: string; status: string }) =>
              node.name === 'local' && node.status === 'online',
          );
        },
        { timeout: 60_000 },
      )
      .toBe(true);

    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await page.getByText('No build yet.').waitFor();
    await page.getByRole('button', { name: 'Build image' }).click();
    const steps = page.getByRole('list', { name: 'Build steps' });
    await steps.getByText('base image', { exact: true }).waitFor({ timeout: 60_000 });
    await page
      .getByRole('status')
      .filter({ hasText: 'Build succeeded.' })
      .waitFor({ timeout: 180_000 });
    for (const name of ['base image', 'repositories', 'commit']) {
      await steps.getByText(name, { exact: true }).waitFor();
    }
    expect(await steps.locator('[data-state="succeeded"]').count()).toBe(2);
    expect(await steps.locator('[data-state="skipped"]').count()).toBe(2);
    const log = await page.getByRole('log', { name: 'Build log' }).textContent();
    const builds = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}/image-builds`, token);
    expect(builds.body.at(0)?.status).toBe('succeeded');
    expect(log).toBe(builds.body.at(0)?.log);
    // The list, asked again while the build moved, shows its end too.
    await page
      .getByRole('list', { name: 'Builds' })
      .locator('[data-state="succeeded"]')
      .waitFor({ timeout: 10_000 });
    await screenshot(page, 'org-project-build');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
