import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import { createUser } from '../test/helpers/factories.js';
import { addMember, createOrg, TEST_SECRETS_KEY } from '../test/helpers/platform.js';
import { signedInPage } from './card-helpers.js';

const web = useBrowserApp({ SECRETS_KEY: TEST_SECRETS_KEY });

async function rolesOf(orgId: string, token: string) {
  const answer = await web.t.api.get(`/orgs/${orgId}/members`, { token });
  expect(answer.status, answer.text).toBe(200);
  const members: { email: string; role: string }[] = answer.body;
  return Object.fromEntries(members.map((member) => [member.email, member.role]));
}

describe('organization members', () => {
  it('are added by e-mail, given another role and removed by an owner, with refusals in words', async () => {
    const owner = await createUser(web.t, { name: 'Olga Owner' });
    const org = await createOrg(web.t, owner, 'Acme');
    const grace = await createUser(web.t, { name: 'Grace Hopper' });
    const page = await signedInPage(web, owner);
    await page.goto(`/app/orgs/${org.id}/members`);
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.getByRole('cell', { name: /Olga Owner/ }).waitFor();

    // An address without an account is refused next to the field.
    const form = page.getByRole('region', { name: 'Add a member' });
    await form.getByLabel('E-mail of the account').fill('nobody@example.com');
    await form.getByRole('button', { name: 'Add member' }).click();
    await form
      .getByText('No account has this e-mail address: the person must sign up first.')
      .waitFor();

    await form.getByLabel('E-mail of the account').fill(grace.user.email);
    await form.getByLabel('Role').selectOption('admin');
    await form.getByRole('button', { name: 'Add member' }).click();
    await form.getByRole('status').getByText('Grace Hopper is now an admin.').waitFor();
    await page.getByRole('combobox', { name: 'Role of Grace Hopper' }).waitFor();
    expect((await rolesOf(org.id, owner.token))[grace.user.email]).toBe('admin');
    await screenshot(page, 'org-admin-members');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The last owner cannot become an admin: the refusal shows under the role.
    await page.getByRole('combobox', { name: 'Role of Olga Owner' }).selectOption('admin');
    await page
      .getByRole('alert')
      .getByText(/The organization must keep an owner/)
      .waitFor();
    expect((await rolesOf(org.id, owner.token))[owner.user.email]).toBe('owner');

    // Grace becomes a member, then is removed after a confirmation.
    await page.getByRole('combobox', { name: 'Role of Grace Hopper' }).selectOption('member');
    await expect
      .poll(async () => (await rolesOf(org.id, owner.token))[grace.user.email], { timeout: 10_000 })
      .toBe('member');
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Grace Hopper?' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: /Grace Hopper/ }).waitFor({ state: 'detached' });
    expect((await rolesOf(org.id, owner.token))[grace.user.email]).toBeUndefined();

    // The last owner cannot leave either: said beside the button, and still an owner.
    const leave = page.getByRole('region', { name: 'Leave the organization' });
    await leave.getByRole('button', { name: 'Leave organization…' }).click();
    await page
      .getByRole('dialog', { name: 'Leave Acme?' })
      .getByRole('button', { name: 'Leave organization' })
      .click();
    await leave
      .getByRole('alert')
      .getByText(/The organization must keep an owner/)
      .waitFor();
    expect((await rolesOf(org.id, owner.token))[owner.user.email]).toBe('owner');
  });

  it('shows an admin the owners as words, and a member the list read-only', async () => {
    const owner = await createUser(web.t, { name: 'Olga Owner' });
    const org = await createOrg(web.t, owner, 'Initech');
    const admin = await addMember(web.t, org, owner, 'admin');
    const member = await addMember(web.t, org, owner, 'member');

    const asAdmin = await signedInPage(web, admin);
    await asAdmin.goto(`/app/orgs/${org.id}/members`);
    await asAdmin.getByRole('cell', { name: /Olga Owner/ }).waitFor();
    expect(await asAdmin.getByRole('combobox', { name: 'Role of Olga Owner' }).count()).toBe(0);
    expect(await asAdmin.getByRole('button', { name: 'Remove Olga Owner' }).count()).toBe(0);
    const adminRoles = asAdmin.getByRole('region', { name: 'Add a member' }).getByLabel('Role');
    expect(await adminRoles.locator('option').allTextContents()).toEqual(['Member', 'Admin']);

    const asMember = await signedInPage(web, member);
    await asMember.goto(`/app/orgs/${org.id}/members`);
    await asMember
      .getByText('Only admins and owners manage members; your role is member.')
      .waitFor();
    await asMember.getByRole('cell', { name: /Olga Owner/ }).waitFor();
    expect(await asMember.getByRole('combobox').count()).toBe(0);
    expect(await asMember.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await asMember.getByRole('region', { name: 'Add a member' }).count()).toBe(0);
    expect(await accessibilityViolations(asMember)).toEqual([]);

    // A member leaves: back on the home page, without the organization.
    await asMember.getByRole('button', { name: 'Leave organization…' }).click();
    await asMember
      .getByRole('dialog', { name: 'Leave Initech?' })
      .getByRole('button', { name: 'Leave organization' })
      .click();
    await asMember.getByRole('heading', { name: 'Organizations' }).waitFor();
    await asMember.getByRole('link', { name: /Initech/ }).waitFor({ state: 'detached' });
    expect((await rolesOf(org.id, owner.token))[member.user.email]).toBeUndefined();
  });
});
