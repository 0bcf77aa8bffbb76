import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

describe('an organization in the dashboard', () => {
  it('is created from the home page, switched to from another, and shows what it holds, live', async () => {
    const owner = await createUser(web.t);
    const other = await createOrg(web.t, owner, 'Globex');
    const page = await signedInPage(web, owner);
    await page.goto('/app/');
    await page.getByRole('link', { name: /Globex/ }).waitFor();

    // Created from the home page: the new organization opens on its landing page.
    await page.getByLabel('Organization name').fill('Initech');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { level: 1, name: 'Initech' }).waitFor();
    const orgId = /\/app\/orgs\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(orgId).toBeDefined();
    await page.getByText('No project yet.').waitFor();
    await page.getByText('No deployment yet.').waitFor();

    // What the API adds shows without a reload (the landing page asks again while shown).
    const token = { token: owner.token };
    const project = await web.t.api.post(`/orgs/${orgId}/projects`, { name: 'api' }, token);
    expect(project.status, project.text).toBe(201);
    const deployment = await web.t.api.post(`/orgs/${orgId}/deployments`, { name: 'site' }, token);
    expect(deployment.status, deployment.text).toBe(201);
    const node = await web.t.api.post(`/orgs/${orgId}/nodes`, { name: 'rack-1' }, token);
    expect(node.status, node.text).toBe(201);
    const projects = page.getByRole('region', { name: /^Projects/ });
    await projects.getByRole('link', { name: /api/ }).waitFor();
    const deployments = page.getByRole('region', { name: /^Deployments/ });
    await deployments.getByRole('link', { name: /site.*empty/ }).waitFor();
    const nodes = page.getByRole('region', { name: /^Nodes/ });
    await nodes.getByRole('link', { name: /rack-1.*offline/ }).waitFor();
    await screenshot(page, 'org-overview');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The switcher lists both organizations, the current one checked, and switches.
    await page.getByRole('button', { name: /switch organization/ }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitemcheckbox', { name: 'Initech' }).isChecked()).toBe(true);
    await menu.getByRole('menuitemcheckbox', { name: 'Globex' }).click();
    await page.getByRole('heading', { level: 1, name: 'Globex' }).waitFor();
    expect(page.url()).toBe(`${web.url}/app/orgs/${other.id}`);
  });

  it('answers an address of an organization the person is not in with a page that says so', async () => {
    const owner = await createUser(web.t);
    const stranger = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Hooli');
    const page = await signedInPage(web, stranger);
    await page.goto(`/app/orgs/${org.id}`);
    await page.getByRole('heading', { name: 'Organization not found' }).waitFor();
    expect(await page.getByText('Hooli').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
