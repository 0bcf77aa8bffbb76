import { request } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser, TEST_PASSWORD, type TestUser } from '../test/helpers/factories.js';
import { addMember, createOrg, TEST_SECRETS_KEY, type TestOrg } from '../test/helpers/platform.js';

// Services answer at svc-{id}.svc.localhost on the app's port; Chromium takes *.localhost as this machine.
const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

let owner: TestUser;
let allowed: TestUser;
let offList: TestUser;
let org: TestOrg;
let servicesUrl: string;

beforeAll(async () => {
  owner = await createUser(web.t);
  org = await createOrg(web.t, owner, 'Private Org');
  allowed = await addMember(web.t, org, owner, 'member');
  offList = await addMember(web.t, org, owner, 'member');
  const deployment = await web.t.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Site' },
    { token: owner.token },
  );
  expect(deployment.status, deployment.text).toBe(201);
  servicesUrl = `/orgs/${org.id}/deployments/${deployment.body.id}/services`;
});

/** A private service (never deployed: past the sign-in, it answers that it has no replica). */
async function privateService(name: string, allowlist: string[]): Promise<{ origin: string }> {
  const created = await web.t.app.inject({
    method: 'POST',
    url: `/api${servicesUrl}`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: {
      name,
      source: { type: 'image', image: 'busybox:1.36' },
      port: 8080,
      accessControl: 'private',
      allowlist,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json<{ id: string }>();
  const port = new URL(web.url).port;
  return { origin: `http://svc-${id}.svc.localhost:${port}` };
}

/** What the service's host answers a browser without a session (asked here: Node cannot resolve *.localhost). */
function firstAnswer(
  origin: string,
  path: string,
): Promise<{ location: string; state: { name: string; value: string } }> {
  return new Promise((resolve, reject) => {
    const asked = request(
      `${web.url}${path}`,
      { headers: { host: new URL(origin).host, accept: 'text/html' } },
      (answer) => {
        answer.resume();
        const [pair = ''] = (answer.headers['set-cookie']?.[0] ?? '').split(';');
        const [name = '', value = ''] = pair.split('=');
        expect(answer.statusCode).toBe(302);
        resolve({ location: String(answer.headers.location), state: { name, value } });
      },
    );
    asked.on('error', reject);
    asked.end();
  });
}

async function signIn(page: Page, person: TestUser): Promise<void> {
  await page.getByLabel('E-mail').fill(person.user.email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('a private service opened in a browser without a session', () => {
  it('asks for the password on the sign-in screen, then opens the service', async () => {
    const service = await privateService('reports', [allowed.user.id]);
    const page = await web.page();
    const visited: URL[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()));
    });
    await page.goto(`${service.origin}/report?month=11`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const screen = new URL(page.url());
    expect(`${screen.origin}${screen.pathname}`).toBe(`${web.url}/app/sign-in`);
    const redirect = String(screen.searchParams.get('redirect'));
    expect(redirect).toMatch(/^\/api\/services\/[0-9a-f-]{36}\/access\?return=/);
    expect(new URL(redirect, web.url).searchParams.get('return')).toBe(
      `${service.origin}/report?month=11`,
    );
    await screenshot(page, 'service-sign-in');
    expect(await accessibilityViolations(page)).toEqual([]);

    await signIn(page, allowed);
    await page.waitForURL(`${service.origin}/report?month=11`);
    // The way there: the access step (a page load), then a one-time code on the service's host.
    const callback = visited.find((url) => url.pathname === '/__sparrow/callback');
    expect(callback?.origin).toBe(service.origin);
    expect(callback?.searchParams.get('code')).toMatch(/^spc_/);
    const cookies = await page.context().cookies(service.origin);
    const access = cookies.find((cookie) => cookie.name === 'sparrow_access');
    expect(access?.value).toMatch(/^svs_/);
    expect(access?.httpOnly).toBe(true);
    // Past the sign-in: the service's own answer (never deployed, so no replica yet).
    await page.getByText('The service has no running replica').waitFor();
  });

  it('refuses a member off the allowlist in words once signed in', async () => {
    const service = await privateService('payroll', [allowed.user.id]);
    const page = await web.page();
    await page.goto(`${service.origin}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, offList);
    await page.getByText('You are not on the allowlist of this private service').waitFor();
    const refused = new URL(page.url());
    expect(`${refused.origin}${refused.pathname}`).toMatch(
      new RegExp(`^${web.url}/api/services/[0-9a-f-]{36}/access$`),
    );
    const cookies = await page.context().cookies(service.origin);
    expect(cookies.some((cookie) => cookie.name === 'sparrow_access')).toBe(false);
  });

  it('goes on to the service from the sign-in screen when already signed in (back from the provider)', async () => {
    const service = await privateService('wiki', []);
    const page = await web.page();
    await page.goto('/app/sign-in');
    await signIn(page, allowed);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    // The service's first answer as the browser gets it: to the access step, with a state cookie.
    const first = await firstAnswer(service.origin, '/docs');
    await page.context().addCookies([{ ...first.state, url: service.origin }]);
    const accessUrl = new URL(first.location);
    const accessPath = `${accessUrl.pathname}${accessUrl.search}`;
    // Where the provider's sign-in comes back to: the sign-in screen with its redirect.
    await page.goto(`/app/sign-in?${new URLSearchParams({ redirect: accessPath }).toString()}`);
    await page.waitForURL(`${service.origin}/docs`);
    await page.getByText('The service has no running replica').waitFor();
  });

  it('keeps every other redirect inside the app', async () => {
    const page = await web.page();
    await page.goto(`/app/sign-in?${new URLSearchParams({ redirect: '/api/orgs' }).toString()}`);
    await signIn(page, allowed);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
  });
});
