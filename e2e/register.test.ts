import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import {
  createUser,
  createWorkspace,
  TEST_PASSWORD,
  uniqueEmail,
} from '../test/helpers/factories.js';

const web = useBrowserApp({ REGISTRATION_MODE: 'open' });

describe('registering and the first workspace', () => {
  it('registers from the sign-in screen, refusing a short password next to it', async () => {
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('E-mail').fill(uniqueEmail('grace'));
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Password').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await descriptionOf(page, 'Password')).toMatch(/fewer than 12 characters/);
    await screenshot(page, 'register-refused');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByText('No workspace yet').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('goes on to where the person was headed once registered, from the sign-in screen', async () => {
    const page = await web.page();
    await page.goto('/app/account');
    await page.waitForURL(/\/app\/sign-in\?redirect=%2Faccount$/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/app\/register\?redirect=%2Faccount$/);
    // And back: the sign-in link keeps it too.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/sign-in\?redirect=%2Faccount$/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('E-mail').fill(uniqueEmail('ada'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/account');
  });

  it('refuses an address already used, next to the e-mail', async () => {
    const { user } = await createUser(web.t);
    const page = await web.page();
    await page.goto('/app/register');
    await page.getByLabel('Name').fill('Twice');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('E-mail').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await descriptionOf(page, 'E-mail')).not.toBe('');
  });

  it('creates a workspace, lists it and switches into it; a taken slug is refused next to it', async () => {
    const taken = await createWorkspace(web.t);
    const page = await web.page();
    await page.goto('/app/register');
    await page.getByLabel('Name').fill('Linus');
    await page.getByLabel('E-mail').fill(uniqueEmail('linus'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();

    const form = page.getByRole('region', { name: 'Create a workspace' });
    await form.getByLabel('Name').fill('Taken');
    await form.getByLabel('Slug').fill(taken.slug);
    await form.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('Another workspace uses this slug').waitFor();
    expect(await descriptionOf(page, 'Slug')).toContain('Another workspace uses this slug');

    await form.getByLabel('Slug').fill('Not A Slug');
    await form.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText(/Must match pattern/).waitFor();
    expect(await descriptionOf(page, 'Slug')).toMatch(/Must match pattern/);
    await screenshot(page, 'workspaces-refused');

    await form.getByLabel('Name').fill('Roadmap');
    await form.getByLabel('Slug').fill('roadmap');
    await form.getByRole('button', { name: 'Create workspace' }).click();
    const link = page.getByRole('link', { name: /Roadmap/ });
    await link.waitFor();
    expect(await form.getByLabel('Slug').inputValue()).toBe('');
    await screenshot(page, 'workspaces');
    expect(await accessibilityViolations(page)).toEqual([]);

    await link.click();
    await page.getByRole('heading', { name: 'Roadmap' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/roadmap');
    await screenshot(page, 'workspace');
  });

  it('reads well in a dark scheme too', async () => {
    const page = await web.page({ colorScheme: 'dark' });
    await page.goto('/app/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const background = await page
      .locator('main')
      .evaluate((element) => getComputedStyle(element.parentElement ?? element).backgroundColor);
    expect(background).not.toBe('rgb(250, 250, 250)');
    await screenshot(page, 'sign-in-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto('/app/register');
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await screenshot(page, 'register-dark');
    expect(await accessibilityViolations(page)).toEqual([]);

    const workspace = await createWorkspace(web.t, undefined, 'Night shift');
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(workspace.owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Night shift/ }).waitFor();
    await screenshot(page, 'workspaces-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: /Night shift/ }).click();
    await page.getByRole('heading', { name: 'Night shift' }).waitFor();
    await screenshot(page, 'workspace-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
