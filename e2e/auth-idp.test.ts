import { afterAll, describe, expect, it } from 'vitest';
import { providerEnv } from '../test/fixtures/oidc.js';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser, TEST_PASSWORD, uniqueEmail } from '../test/helpers/factories.js';
import { startTestProvider, type TestProvider } from '../test/helpers/oidc.js';

let idp: TestProvider | undefined;
// The provider must know the app's address (it redirects back there), known once the app has a port.
const web = useBrowserApp(async (url) => {
  idp = await startTestProvider(`${url}/api/auth/idp/callback`);
  return { ...providerEnv(idp), IDP_NAME: 'Acme ID', REGISTRATION_MODE: 'open' };
});
afterAll(async () => {
  await idp?.close();
});

function provider(): TestProvider {
  if (idp === undefined) throw new Error('the provider starts with the app');
  return idp;
}

describe('signing in with the identity provider', () => {
  it('signs in through the provider and lands where the person was headed', async () => {
    const email = uniqueEmail('provider');
    provider().signInAs('subject-ada', { email, verified: true, name: 'Ada' });
    const page = await web.page();
    await page.goto('/app/');
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).waitFor();
    await screenshot(page, 'idp-sign-in');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    // The account the provider created has a workspace now; a deep link into it, in a new browser.
    const created = await page.evaluate(async () => {
      const answer = await fetch('/workspaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From the provider', slug: 'from-provider' }),
      });
      return answer.status;
    });
    expect(created).toBe(201);

    const later = await web.page({ colorScheme: 'dark' });
    await later.goto('/app/from-provider/activity?type=item.created');
    await later.getByRole('link', { name: 'Sign in with Acme ID' }).waitFor();
    expect(new URL(later.url()).searchParams.get('redirect')).toBe(
      '/from-provider/activity?type=item.created',
    );
    await screenshot(later, 'idp-sign-in-dark');
    expect(await accessibilityViolations(later)).toEqual([]);
    await later.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await later.waitForURL((url) => url.pathname === '/app/from-provider/activity');
    expect(new URL(later.url()).searchParams.get('type')).toBe('item.created');
  });

  it('shows the refusals in words on the sign-in screen, and the form still works', async () => {
    const existing = await createUser(web.t, { email: uniqueEmail('clash') });
    provider().signInAs('subject-clash', { email: existing.user.email, verified: true });
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page
      .getByRole('alert')
      .getByText('An account with this e-mail address already exists')
      .waitFor();
    expect(new URL(page.url()).searchParams.get('idpError')).toBe('identity_clash');
    await screenshot(page, 'idp-refused');
    expect(await accessibilityViolations(page)).toEqual([]);

    provider().signInAs('subject-unverified', {
      email: uniqueEmail('unverified'),
      verified: false,
    });
    // A new browser: the provider remembers whom it signed in, per browser.
    const other = await web.page();
    await other.goto('/app/sign-in');
    await other.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await other.getByRole('alert').getByText('an unverified e-mail address').waitFor();
    expect(new URL(other.url()).searchParams.get('idpError')).toBe('invalid_id_token');

    // A return from the provider this browser did not start: a page that says so, not JSON.
    await other.goto('/api/auth/idp/callback?state=not-this-browser&code=anything');
    await other.getByRole('alert').getByText('was not started in this browser').waitFor();
    expect(new URL(other.url()).searchParams.get('idpError')).toBe('invalid_state');

    // The password still signs the same person in, after a refusal.
    await page.getByLabel('E-mail').fill(existing.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  });

  it('never follows a redirect out of the app after signing in', async () => {
    const { user } = await createUser(web.t);
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const page = await web.page();
      await page.goto(`/app/sign-in?redirect=${encodeURIComponent(target)}`);
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
      expect(new URL(page.url()).origin, target).toBe(web.url);
      expect(new URL(page.url()).pathname, target).toBe('/app/');
      // The provider's button carries only the safe destination too.
      await page.context().clearCookies();
    }
  });
});
