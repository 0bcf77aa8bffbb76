import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../src/web/headers.js';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import { createUser, createWorkspace, TEST_PASSWORD } from '../test/helpers/factories.js';

const web = useBrowserApp();

describe('signing in with a password', () => {
  it('sends / to the app, and the app to the sign-in screen without a session', async () => {
    const home = await fetch(`${web.url}/`, { redirect: 'manual' });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/app/');

    const page = await web.page();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    // Registration is by invitation here: no link to a register screen.
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('serves the app with a strict policy, never framed', async () => {
    const page = await fetch(`${web.url}/app/sign-in`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
    expect(policy).toBe(contentSecurityPolicy(nonce));
    // The page's nonce is the answer's, for the style elements the app hands it to.
    expect(await page.text()).toContain(`nonce="${nonce}"`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a wrong password in words, next to the password', async () => {
    const { user } = await createUser(web.t);
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid e-mail or password').waitFor();
    expect(await descriptionOf(page, 'Password')).toBe('Invalid e-mail or password');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await screenshot(page, 'sign-in-refused');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('signs in, lists the workspaces, keeps the session on reload, and signs out', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Launch plans');
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByRole('link', { name: /Launch plans/ }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await screenshot(page, 'workspaces-signed-in');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.reload();
    await page.getByRole('link', { name: /Launch plans/ }).click();
    await page.getByRole('heading', { name: 'Launch plans' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/${workspace.slug}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session is revoked, not only forgotten by the page.
    await page.goto(`/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('reloads a deep link into the app', async () => {
    const owner = await createUser(web.t);
    const workspace = await createWorkspace(web.t, owner, 'Deep');
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    const answer = await page.goto(`/app/${workspace.slug}`);
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Deep' }).waitFor();
    await page.goto('/app/no-such-workspace');
    await page.getByRole('heading', { name: 'Workspace not found' }).waitFor();
  });

  it('signs in with the keyboard alone, every control showing its focus', async () => {
    const { user } = await createUser(web.t);
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const focusedName = () =>
      page.evaluate(
        () => document.activeElement?.getAttribute('name') ?? document.activeElement?.tagName,
      );
    const outlined = () =>
      page.evaluate(() => {
        const element = document.activeElement;
        if (element === null) return false;
        const style = getComputedStyle(element);
        return style.outlineStyle !== 'none' || style.boxShadow !== 'none';
      });
    await page.keyboard.press('Tab'); // the header's home link
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('email');
    expect(await outlined()).toBe(true);
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('password');
    await page.keyboard.type(TEST_PASSWORD);
    await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('BUTTON');
    expect(await outlined()).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  });

  it('ignores a write with the cookie from another origin of the same site (fetch and form)', async () => {
    const { user } = await createUser(web.t);
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    const token = (await page.context().cookies()).find(
      (cookie) => cookie.name === 'session',
    )?.value;
    expect(token).toBeDefined();

    // Another port of the same host: another origin, the same site, so the
    // browser sends the SameSite=Lax cookie (a service on SERVICE_DOMAIN is such a neighbour).
    const elsewhere = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(
        `<!doctype html><html lang="en"><title>Elsewhere</title><form method="post" action="${web.url}/auth/logout"><button>Go</button></form></html>`,
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const neighbour = await page.context().newPage();
      await neighbour.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      // A bodiless POST reaches the origin check (with the cookie: 403, not 401);
      // logging out would be the change.
      const fetched = neighbour.waitForResponse(`${web.url}/auth/logout`);
      await neighbour.evaluate(async (target) => {
        await fetch(`${target}/auth/logout`, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
        });
      }, web.url);
      expect((await fetched).status()).toBe(403);
      const answer = neighbour.waitForResponse(`${web.url}/auth/logout`);
      await neighbour.getByRole('button', { name: 'Go' }).click();
      // Refused for its origin before its body (not JSON) is read.
      expect((await answer).status()).toBe(403);
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
    const me = await web.t.http.get('/auth/me', { token });
    expect(me.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  });
});
