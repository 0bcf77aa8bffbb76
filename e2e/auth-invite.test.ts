import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createUser,
  createWorkspace,
  TEST_PASSWORD,
  type TestWorkspace,
  uniqueEmail,
} from '../test/helpers/factories.js';

// Registration is by invitation only (the default): the invitation is the way in.
const web = useBrowserApp();

async function invite(workspace: TestWorkspace, email: string, role = 'member'): Promise<string> {
  const created = await web.t.http.post(
    `/workspaces/${workspace.id}/invitations`,
    { email, role },
    { token: workspace.owner.token },
  );
  expect(created.status, created.text).toBe(201);
  return created.body.token;
}

describe('opening an invitation link', () => {
  it('says in words when the link is dead', async () => {
    const page = await web.page();
    await page.goto('/app/invite?token=inv_never_issued');
    await page.getByRole('alert').getByText('unknown, expired, revoked or already used').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto('/app/invite');
    await page.getByRole('alert').getByText('no invitation in it').waitFor();
  });

  it('registers a new account with the invitation and lands in the workspace', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Harbour');
    const email = uniqueEmail('newcomer');
    const token = await invite(workspace, email, 'admin');
    const page = await web.page();
    await page.goto(`/app/invite?token=${token}`);
    await page.getByRole('heading', { name: 'Join Harbour' }).waitFor();
    await page.getByText(email).waitFor();
    await page.getByText('admin', { exact: true }).waitFor();
    await screenshot(page, 'invite-register');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('Newcomer');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    // Refused next to the password; what was typed stays.
    await page.getByLabel('Password').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('Newcomer');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL((url) => url.pathname === `/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Harbour', exact: true }).waitFor();
    // Used up: the link is dead now.
    await page.goto(`/app/invite?token=${token}`);
    await page.getByRole('alert').getByText('already used').waitFor();
  });

  it('joins as the signed-in account with one button, or says the address does not match', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Lighthouse');
    const member = await createUser(web.t, { email: uniqueEmail('Member') });
    const token = await invite(workspace, member.user.email.toLowerCase());
    const other = await createUser(web.t, { email: uniqueEmail('other') });

    const stranger = await web.page({ colorScheme: 'dark' });
    await stranger.goto(`/app/sign-in?redirect=${encodeURIComponent(`/invite?token=${token}`)}`);
    await stranger.getByLabel('E-mail').fill(other.user.email);
    await stranger.getByLabel('Password').fill(TEST_PASSWORD);
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await stranger
      .getByRole('alert')
      .getByText(`you are signed in as ${other.user.email}`)
      .waitFor();
    await screenshot(stranger, 'invite-other-address-dark');
    expect(await accessibilityViolations(stranger)).toEqual([]);

    // Signed out, the screen offers signing in; that comes back here.
    const page = await web.page();
    await page.goto(`/app/invite?token=${token}`);
    await page.getByRole('link', { name: 'Sign in to join' }).click();
    await page.getByLabel('E-mail').fill(member.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Join Lighthouse' }).waitFor();
    await screenshot(page, 'invite-join');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Join Lighthouse' }).click();
    await page.waitForURL((url) => url.pathname === `/app/${workspace.slug}`);
    await page.getByRole('heading', { name: 'Lighthouse', exact: true }).waitFor();
    const membership = await web.t.http.get(`/workspaces/${workspace.id}`, {
      token: member.token,
    });
    expect(membership.body.role).toBe('member');
  });
});
