import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import { createUser, type TestUser } from '../test/helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

async function readProject(owner: TestUser, org: TestOrg, projectId: string) {
  const response = await web.t.api.get(`/orgs/${org.id}/projects/${projectId}`, {
    token: owner.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** The JSON bodies of the PATCHes the page sends, as they are sent. */
function recordPatches(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') bodies.push(request.postDataJSON());
  });
  return bodies;
}

describe('projects in the dashboard', () => {
  it('are listed with their descriptions, created from the list, and a taken name is refused by the name', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Projects Inc');
    const token = { token: owner.token };
    const seeded = await web.t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'api', description: 'The public API' },
      token,
    );
    expect(seeded.status).toBe(201);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects`);
    await page.getByRole('link', { name: 'api', exact: true }).waitFor();
    await page.getByText('The public API').waitFor();

    await page.getByLabel('Project name').fill('web');
    await page.getByLabel('Project description').fill('The web app');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'web', exact: true }).waitFor();
    await page.getByText('The web app').waitFor();
    const listed = await web.t.api.get(`/orgs/${org.id}/projects`, token);
    expect(listed.body.map((project: { name: string }) => project.name)).toEqual(['api', 'web']);

    // Names are unique whatever their case: the refusal is read with the name field.
    await page.getByLabel('Project name').fill('API');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect
      .poll(() => descriptionOf(page, 'Project name'), { timeout: 10_000 })
      .toContain('Another project of this organization has this name');
    await screenshot(page, 'org-projects-list');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'web', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'web' }).waitFor();
  });

  it('edits every setting, sending only what changed, clears the description and empties a list', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const created = await web.t.api.post(
      `/orgs/${org.id}/projects`,
      { name: 'shop', description: 'Storefront', forwardPorts: [3000, 5432] },
      { token: owner.token },
    );
    const projectId: string = created.body.id;
    const page = await signedInPage(web, owner);
    const patches = recordPatches(page);
    await page.goto(`/app/orgs/${org.id}/projects/${projectId}`);
    await page.getByRole('heading', { level: 1, name: 'shop' }).waitFor();
    await page.getByText('No unsaved changes.').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('shop-2');
    await page.getByRole('button', { name: 'Add repository' }).click();
    await page.getByLabel('Repository 1 URL').fill('https://example.com/acme/shop.git');
    await page.getByLabel('Repository 1 branch').fill('main');
    await page.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 1 id').fill('ghcr.io/devcontainers/features/node:1');
    await page.getByLabel('Feature 1 options').fill('version=lts\ninstallYarn=true');
    await page.getByRole('button', { name: 'Add extension' }).click();
    await page.getByLabel('Extension 1', { exact: true }).fill('dbaeumer.vscode-eslint');
    await page.getByRole('button', { name: 'Remove Port 1' }).click();
    await page.getByRole('button', { name: 'Add port' }).click();
    await page.getByLabel('Port 2', { exact: true }).fill('8080');
    await page
      .getByText('Unsaved changes: Name, Repositories, Features, Extensions, Forwarded ports.')
      .waitFor();
    await screenshot(page, 'org-project-editing');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'as version 2' }).waitFor();
    await page.getByText('No unsaved changes.').waitFor();

    let saved = await readProject(owner, org, projectId);
    expect(saved).toMatchObject({
      name: 'shop-2',
      description: 'Storefront',
      repositories: [{ url: 'https://example.com/acme/shop.git', branch: 'main' }],
      features: { 'ghcr.io/devcontainers/features/node:1': { version: 'lts', installYarn: true } },
      extensions: ['dbaeumer.vscode-eslint'],
      forwardPorts: [5432, 8080],
      version: 2,
    });
    // Only the changed fields were sent: the untouched description was not.
    expect(Object.keys(patches.at(-1) ?? {}).sort()).toEqual(
      ['extensions', 'features', 'forwardPorts', 'name', 'repositories'].sort(),
    );

    // Clearing the description sends ""; removing every port sends [].
    await page.getByLabel('Description').fill('');
    await page.getByText('Cleared: Save sends an empty description').waitFor();
    await page.getByRole('button', { name: 'Remove Port 1' }).click();
    await page.getByRole('button', { name: 'Remove Port 1' }).click();
    await page.getByText('No forwarded port.').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'as version 3' }).waitFor();
    expect(patches.at(-1)).toEqual({ description: '', forwardPorts: [] });
    saved = await readProject(owner, org, projectId);
    expect(saved.description).toBeNull();
    expect(saved.forwardPorts).toEqual([]);
    await page.getByText('No description.').waitFor();
    expect(await page.getByLabel('Description').inputValue()).toBe('');

    // Discard puts back the saved settings.
    await page.getByLabel('Name', { exact: true }).fill('scratch');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('shop-2');
  });

  it('shows a refusal next to the setting it is about and keeps what was typed', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner);
    const token = { token: owner.token };
    await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'taken' }, token);
    const created = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'mine' }, token);
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/projects/${created.body.id}`);
    await page.getByRole('heading', { level: 1, name: 'mine' }).waitFor();

    for (const index of [1, 2]) {
      await page.getByRole('button', { name: 'Add repository' }).click();
      await page.getByLabel(`Repository ${index} URL`).fill('https://example.com/a.git');
    }
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const repositories = page.getByRole('group', { name: /^Repositories/ });
    await repositories
      .getByText('The repository https://example.com/a.git is listed twice')
      .waitFor();
    expect(await repositories.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'org-project-refusal');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove repository 2' }).click();
    await page.getByLabel('Name', { exact: true }).fill('taken');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => descriptionOf(page, 'Name'), { timeout: 10_000 })
      .toContain('Another project of this organization has this name');
    expect(await page.getByLabel('Repository 1 URL').inputValue()).toBe(
      'https://example.com/a.git',
    );
    const unchanged = await readProject(owner, org, created.body.id);
    expect(unchanged).toMatchObject({ name: 'mine', repositories: [], version: 1 });
  });
});
