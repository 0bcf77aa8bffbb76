import { describe, expect, it } from 'vitest';
import { insertRun } from '../test/fixtures/job-runs.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

// No engine here: settings, write-only secrets and the custom domain need none. DNS that refuses at once.
const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY, DNS_SERVERS: '127.0.0.1:9' });

describe('deployment and service settings', () => {
  it('sends only what changed: a cleared description as "", emptied variables as {}, secrets by name only', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Settings Org');
    const as = { token: owner.token };
    const created = await web.t.api.post(
      `/orgs/${org.id}/deployments`,
      {
        name: 'Blog',
        description: 'Words',
        env: { REGION: 'eu' },
        secrets: [{ name: 'DB_PASSWORD', value: 'hunter2' }],
      },
      as,
    );
    expect(created.status, created.text).toBe(201);
    const path = `/orgs/${org.id}/deployments/${created.body.id}` as const;
    const page = await signedInPage(web, owner);
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') sent.push(request.postDataJSON());
    });
    await page.goto(`/app${path}`);
    const settings = page.getByRole('form', { name: 'Deployment settings' });
    await settings.getByText('DB_PASSWORD', { exact: true }).waitFor();
    expect(await page.getByText('hunter2').count()).toBe(0);

    await settings.getByLabel('Description', { exact: true }).fill('');
    await settings.getByRole('button', { name: 'Remove variable REGION' }).click();
    await settings.getByRole('button', { name: 'Replace DB_PASSWORD' }).click();
    await settings.getByLabel('New value of DB_PASSWORD').fill('correct horse');
    await settings.getByText('Changed: description, env, secrets').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'deployment-settings');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    expect(sent).toEqual([
      { description: '', env: {}, secrets: [{ name: 'DB_PASSWORD', value: 'correct horse' }] },
    ]);
    const after = await web.t.api.get(path, as);
    expect(after.body).toMatchObject({ description: null, env: {} });
    expect(after.body.secrets.map((secret: { name: string }) => secret.name)).toEqual([
      'DB_PASSWORD',
    ]);
    expect(after.text).not.toContain('correct horse');
  });

  it('lists job runs 50 at a time, the older ones on asking', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Runs Org');
    const as = { token: owner.token };
    const deployment = await web.t.api.post(`/orgs/${org.id}/deployments`, { name: 'Busy' }, as);
    const path = `/orgs/${org.id}/deployments/${deployment.body.id}` as const;
    const service = await web.t.api.post(
      `${path}/services`,
      { name: 'web', source: { type: 'image', image: 'busybox:1.36' } },
      as,
    );
    const ran = { deploymentId: deployment.body.id, serviceId: service.body.id };
    const started = Date.now() - 3_600_000;
    for (let minute = 0; minute < 61; minute++) {
      const at = new Date(started + minute * 60_000);
      await insertRun({ t: web.t, org }, ran, 'succeeded', { created_at: at, ended_at: at });
    }
    const page = await signedInPage(web, owner);
    await page.goto(`/app${path}`);
    const runs = page.getByRole('list', { name: 'Runs' }).getByRole('listitem');
    await expect.poll(() => runs.count()).toBe(50);
    const older = page.getByRole('button', { name: 'Show older runs' });
    await older.click();
    await expect.poll(() => runs.count()).toBe(61);
    await older.waitFor({ state: 'detached' });
    // Newest first, from the first page to the last (times as the page writes them).
    const shown = (minute: number) =>
      page.evaluate((at) => new Date(at).toLocaleString(), started + minute * 60_000);
    expect(await runs.first().textContent()).toContain(await shown(60));
    expect(await runs.nth(50).textContent()).toContain(await shown(10));
    expect(await runs.last().textContent()).toContain(await shown(0));
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it("switches a service's source from an image to a project and its branch, and back", async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Source Org');
    const as = { token: owner.token };
    const project = await web.t.api.post(`/orgs/${org.id}/projects`, { name: 'shop' }, as);
    expect(project.status, project.text).toBe(201);
    const deployment = await web.t.api.post(`/orgs/${org.id}/deployments`, { name: 'Store' }, as);
    const services = `/orgs/${org.id}/deployments/${deployment.body.id}/services` as const;
    const service = await web.t.api.post(
      services,
      { name: 'web', source: { type: 'image', image: 'busybox:1.36' } },
      as,
    );
    expect(service.status, service.text).toBe(201);
    const path = `${services}/${service.body.id}` as const;
    const page = await signedInPage(web, owner);
    await page.goto(`/app${path}`);
    const settings = page.getByRole('form', { name: 'Service settings' });
    await settings.getByText('From a project').click();
    await settings.getByLabel('Project', { exact: true }).selectOption({ label: 'shop' });
    await settings.getByLabel('Branch', { exact: true }).fill('release');
    await settings.getByText('Changed: source.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    expect((await web.t.api.get(path, as)).body.source).toEqual({
      type: 'project',
      projectId: project.body.id,
      branch: 'release',
    });

    // Back to an image: an empty one is refused by the API, in words, next to the field.
    await settings.getByText('From an image').click();
    const image = settings.getByLabel('Image', { exact: true });
    await image.fill('');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => image.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    await image.fill('busybox:1.37');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    expect((await web.t.api.get(path, as)).body.source).toEqual({
      type: 'image',
      image: 'busybox:1.37',
    });
  });

  it('shows the TXT record of a custom domain and a refused verification in words', async () => {
    const owner = await createUser(web.t);
    const org = await createOrg(web.t, owner, 'Domain Org');
    const as = { token: owner.token };
    const deployment = await web.t.api.post(`/orgs/${org.id}/deployments`, { name: 'Docs' }, as);
    const services = `/orgs/${org.id}/deployments/${deployment.body.id}/services` as const;
    const service = await web.t.api.post(
      services,
      { name: 'docs', source: { type: 'image', image: 'busybox:1.36' }, port: 8080 },
      as,
    );
    expect(service.status, service.text).toBe(201);
    const page = await signedInPage(web, owner);
    await page.goto(`/app${services}/${service.body.id}`);
    const settings = page.getByRole('form', { name: 'Service settings' });
    const domain = settings.getByLabel('Domain', { exact: true });
    // Not a domain name: refused next to the field.
    await domain.fill('not a domain');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => domain.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    await domain.fill('docs.example.com');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('No change to save.').waitFor();
    const saved = await web.t.api.get(`${services}/${service.body.id}`, as);
    const challenge = saved.body.customDomain?.challenge;
    expect(challenge?.name).toBe('_sparrow-challenge.docs.example.com');
    await settings.getByText(String(challenge?.value)).waitFor();
    await settings.getByText('_sparrow-challenge.docs.example.com').waitFor();

    await settings.getByRole('button', { name: 'Verify domain' }).click();
    const refusal = settings.getByRole('alert');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.textContent()).toMatch(/\w+ \w+/);
    const again = await web.t.api.get(`${services}/${service.body.id}`, as);
    expect(again.body.customDomain?.verified).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'service-domain');
  });
});
