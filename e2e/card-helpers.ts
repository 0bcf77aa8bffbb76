import type { Page } from 'playwright-core';
import type { BrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  createCollection,
  createField,
  createItem,
  createUser,
  createWorkspace,
  selectOptions,
  type TestUser,
  type TestWorkspace,
} from '../test/helpers/factories.js';

/** A page signed in as the user (the session cookie set, as sign-in would). */
export async function signedInPage(
  web: BrowserApp,
  user: TestUser,
  options: { colorScheme?: 'light' | 'dark'; phone?: boolean } = {},
): Promise<Page> {
  const page = await web.page(
    options.colorScheme === undefined ? {} : { colorScheme: options.colorScheme },
  );
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  if (options.phone === true) await page.setViewportSize({ width: 390, height: 844 });
  return page;
}

/** A workspace with two lists, a field of every type, a second member and one card. */
export async function cardWorkspace(web: BrowserApp) {
  const t = web.t;
  const owner = await createUser(t, { name: 'Ada Owner' });
  const workspace: TestWorkspace = await createWorkspace(t, owner, 'Card tests');
  const member = await addMember(t, workspace, 'member', 'Grace Member');
  const list = await createCollection(t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
  const other = await createCollection(t, workspace, { name: 'Second list', keyPrefix: 'SL' });
  const field = (body: Record<string, unknown>) => createField(t, workspace, body);
  await field({ key: 'notes', type: 'text', name: 'Notes' });
  await field({ key: 'points', type: 'number', name: 'Points' });
  await field({
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: selectOptions('Idea', 'Build'),
  });
  await field({ key: 'tags', type: 'multi_select', name: 'Tags', config: selectOptions('x', 'y') });
  await field({ key: 'owner', type: 'person', name: 'Owner' });
  await field({ key: 'watchers', type: 'multi_person', name: 'Watchers' });
  await field({ key: 'due', type: 'date', name: 'Due' });
  await field({ key: 'done', type: 'checkbox', name: 'Done' });
  await field({ key: 'link', type: 'url', name: 'Link' });
  await field({ key: 'contact', type: 'email', name: 'Contact' });
  await field({ key: 'spec', type: 'file', name: 'Spec' });
  const item = await createItem(t, workspace, list.id, { title: 'Launch the site' });
  return { owner, member, workspace, list, other, item };
}

/** The card as the API has it now. */
export async function readCard(web: BrowserApp, workspace: TestWorkspace, idOrKey: string) {
  const answer = await web.t.http.get(`/workspaces/${workspace.id}/items/${idOrKey}`, {
    token: workspace.owner.token,
  });
  return { status: answer.status, body: answer.body };
}
