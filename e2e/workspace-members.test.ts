import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import { addMember, createUser, createWorkspace, uniqueEmail } from '../test/helpers/factories.js';
import { signInAs } from './workspace-session.js';

const web = useBrowserApp();

describe('the members of a workspace', () => {
  it('adds an existing account; an unknown address is refused in words', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Team');
    const colleague = await createUser(web.t, { name: 'Grace' });
    const page = await web.page();
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/members`);
    await page.getByRole('cell', { name: /Ada \(you\)/ }).waitFor();

    const email = page.getByLabel('E-mail of the account');
    await email.fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('No account has this e-mail address.').waitFor();
    expect(await descriptionOf(page, 'E-mail of the account')).toContain(
      'Invite the address by link',
    );

    await email.fill(colleague.user.email);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('status').filter({ hasText: 'Grace is now a member.' }).waitFor();
    const role = page.getByRole('combobox', { name: 'Role of Grace' });
    await role.waitFor();
    expect(await role.inputValue()).toBe('member');
    await screenshot(page, 'members-added');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('changes a role and removes a member', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Team');
    const colleague = await addMember(web.t, { ...workspace, owner }, 'member', 'Grace');
    const page = await web.page();
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/members`);
    const role = page.getByRole('combobox', { name: 'Role of Grace' });
    await role.waitFor();
    await role.selectOption('admin');
    await expect
      .poll(async () => {
        const members = await web.t.http.get(`/workspaces/${workspace.id}/members`, {
          token: owner.token,
        });
        return members.body.find(
          (member: { userId: string }) => member.userId === colleague.user.id,
        )?.role;
      })
      .toBe('admin');

    await page.getByRole('button', { name: 'Remove Grace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Grace?' });
    await dialog.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Role of Grace' }).waitFor({ state: 'detached' });
  });

  it('explains the last owner refusal next to the role and next to leaving', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Solo');
    const page = await web.page({ colorScheme: 'dark' });
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/members`);
    const myRole = page.getByRole('combobox', { name: 'Role of Ada' });
    await myRole.waitFor();
    await myRole.selectOption('admin');
    const explanation = 'The workspace must keep an owner: make another member an owner first';
    await page.getByRole('alert').filter({ hasText: explanation }).waitFor();
    expect(await myRole.getAttribute('aria-invalid')).toBe('true');
    // The choice goes back to what the server holds.
    await expect.poll(() => myRole.inputValue()).toBe('owner');

    await page.getByRole('button', { name: 'Leave workspace…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave workspace' }).click();
    const leaveError = page.getByRole('region', { name: 'Leave the workspace' }).getByRole('alert');
    await leaveError.waitFor();
    expect(await leaveError.textContent()).toContain(explanation);
    await screenshot(page, 'members-last-owner-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    const still = await web.t.http.get(`/workspaces/${workspace.id}`, { token: owner.token });
    expect(still.body.role).toBe('owner');
  });

  it('creates an invitation link to copy, lists it as pending and revokes it', async () => {
    const owner = await createUser(web.t, { name: 'Ada' });
    const workspace = await createWorkspace(web.t, owner, 'Hiring');
    const page = await web.page();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: web.url,
    });
    await signInAs(page, web.url, owner);
    await page.goto(`/app/${workspace.slug}/settings/members`);
    const invitee = uniqueEmail('invitee');
    await page.getByLabel('E-mail to invite').fill(invitee);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = page.getByLabel('Invitation link');
    await link.waitFor();
    const url = new URL(await link.inputValue());
    expect(url.origin + url.pathname).toBe(`${web.url}/app/invite`);
    const token = url.searchParams.get('token') ?? '';
    expect(token).toMatch(/^inv_/);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url.toString());
    const revoke = page.getByRole('button', { name: `Revoke the invitation of ${invitee}` });
    await revoke.waitFor();
    await screenshot(page, 'members-invitation');
    expect(await accessibilityViolations(page)).toEqual([]);

    const preview = await web.t.http.get('/auth/invitation', { query: { token } });
    expect(preview.status).toBe(200);
    await revoke.click();
    await revoke.waitFor({ state: 'detached' });
    const dead = await web.t.http.get('/auth/invitation', { query: { token } });
    expect(dead.status).toBe(404);
  });

  it('lets an admin manage all but owners', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Roles');
    const admin = await addMember(web.t, workspace, 'admin', 'Alan');
    await addMember(web.t, workspace, 'member', 'Mia');
    const page = await web.page();
    await signInAs(page, web.url, admin);
    await page.goto(`/app/${workspace.slug}/settings/members`);
    const miaRole = page.getByRole('combobox', { name: 'Role of Mia' });
    await miaRole.waitFor();
    expect(await miaRole.locator('option').allTextContents()).toEqual([
      'Viewer',
      'Member',
      'Admin',
    ]);
    expect(await page.getByRole('combobox', { name: 'Role of Owner' }).count()).toBe(0);
    await page.getByText('Only an owner can change an owner.').waitFor();
    expect(await page.getByRole('button', { name: 'Remove Owner' }).count()).toBe(0);
    await screenshot(page, 'members-admin');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows a member the list read-only with the reason, and lets them leave', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Roles');
    const member = await addMember(web.t, workspace, 'member', 'Mia');
    const memberPage = await web.page({ colorScheme: 'dark' });
    await signInAs(memberPage, web.url, member);
    await memberPage.goto(`/app/${workspace.slug}/settings/members`);
    await memberPage
      .getByText('Only admins and owners manage members; your role is member.')
      .waitFor();
    expect(await memberPage.getByRole('combobox').count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: 'Create invitation' }).count()).toBe(0);
    await screenshot(memberPage, 'members-member-dark');
    expect(await accessibilityViolations(memberPage)).toEqual([]);

    await memberPage.getByRole('button', { name: 'Leave workspace…' }).click();
    await memberPage.getByRole('dialog').getByRole('button', { name: 'Leave workspace' }).click();
    await memberPage.getByRole('heading', { name: 'Workspaces' }).waitFor();
    expect(await memberPage.getByRole('link', { name: /Roles/ }).count()).toBe(0);
    const gone = await web.t.http.get(`/workspaces/${workspace.id}`, { token: member.token });
    expect(gone.status).toBe(404);
  });
});
