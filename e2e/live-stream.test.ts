import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  addMember,
  allEvents,
  createCollection,
  createWorkspace,
  type TestUser,
} from '../test/helpers/factories.js';

const web = useBrowserApp();

/** A page of a new context signed in as `user` (their session cookie). */
async function signedIn(user: TestUser): Promise<Page> {
  const page = await web.page();
  await page
    .context()
    .addCookies([{ name: 'session', value: user.token, url: web.url, httpOnly: true }]);
  return page;
}

/** Opens the workspace and waits until its event stream is caught up. */
async function openLive(page: Page, slug: string): Promise<void> {
  await page.goto(`/app/${slug}`);
  await page.locator('[data-live="live"]').waitFor();
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Workspace' });

describe('live updates from the event stream', () => {
  it('shows a rename made elsewhere in two browsers, without a reload', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Before');
    const member = await addMember(web.t, workspace, 'member', 'Mo');
    const ownerPage = await signedIn(workspace.owner);
    const memberPage = await signedIn(member);
    await openLive(ownerPage, workspace.slug);
    await openLive(memberPage, workspace.slug);
    await sidebar(memberPage).getByText('Before').waitFor();

    const renamed = await web.t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'After the rename' },
      { token: workspace.owner.token },
    );
    expect(renamed.status).toBe(200);
    // Both browsers' sidebars follow; neither page was loaded again.
    for (const page of [ownerPage, memberPage]) {
      await sidebar(page).getByText('After the rename').waitFor();
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    }
  });

  it('shows a list created by the API in the open palette', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Lists');
    const member = await addMember(web.t, workspace, 'viewer', 'Vi');
    const memberPage = await signedIn(member);
    await openLive(memberPage, workspace.slug);
    // The palette holds the lists of the workspace: a list created by the API appears in it.
    await memberPage.keyboard.press('Control+k');
    const palette = memberPage.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: 'Settings', exact: true }).waitFor();
    expect(await palette.getByRole('option', { name: 'Roadmap' }).count()).toBe(0);
    await createCollection(web.t, workspace, { name: 'Roadmap', keyPrefix: 'RM' });
    await palette.getByRole('option', { name: 'Roadmap' }).waitFor();
    await screenshot(memberPage, 'live-palette-new-list');
    expect(await accessibilityViolations(memberPage)).toEqual([]);
  });

  it('refreshes a burst of events at once, not once per event', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Burst');
    const lists = [];
    for (let index = 0; index < 40; index++) {
      lists.push(await createCollection(web.t, workspace, { name: `List ${index}` }));
    }
    const page = await signedIn(workspace.owner);
    await openLive(page, workspace.slug);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('option', { name: 'List 39' }).waitFor();
    let reads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/workspaces/${workspace.id}/collections`) reads++;
    });

    // One reorder: 40 events of one transaction, one read of the lists.
    const reordered = await web.t.http.put(
      `/workspaces/${workspace.id}/collections/order`,
      { collections: lists.reverse().map((list) => ({ id: list.id, groupId: null })) },
      { token: workspace.owner.token },
    );
    expect(reordered.status).toBe(200);
    const events = await allEvents(web.t, workspace, { type: 'collection.updated' });
    expect(events.length).toBeGreaterThanOrEqual(39);
    await expect.poll(() => reads).toBeGreaterThan(0);
    // The sidebar is hidden from the reader while the palette is open.
    await page.keyboard.press('Escape');
    const renamed = await web.t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Burst done' },
      { token: workspace.owner.token },
    );
    expect(renamed.status).toBe(200);
    // The rename came after the burst on the same stream: once shown, the burst is handled.
    await sidebar(page).getByText('Burst done').waitFor();
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('opens the stream again when the server ends it, resuming after the last event', async () => {
    const workspace = await createWorkspace(web.t, undefined, 'Steady');
    const [last] = (await allEvents(web.t, workspace)).slice(-1);
    if (last === undefined) throw new Error('A new workspace has events (its statuses)');
    const page = await signedIn(workspace.owner);
    const streams: string[] = [];
    let held: (() => Promise<void>) | undefined;
    await page.route('**/events/stream*', async (route) => {
      streams.push(route.request().url());
      if (streams.length > 1) return route.continue();
      // The first stream: answered as the server does, then ended once the test says.
      await new Promise<void>((resolve) => {
        held = async () => {
          await route.fulfill({
            status: 200,
            contentType: 'text/event-stream',
            body: `retry: 200\n\nevent: ready\nid: ${last.id}\ndata: {"cursor":"${last.id}"}\n\n`,
          });
          resolve();
        };
      });
    });
    await page.goto(`/app/${workspace.slug}`);
    await sidebar(page).getByText('Steady').waitFor();
    await expect.poll(() => held !== undefined).toBe(true);

    // Renamed while the first stream is on its way: only the resumed stream can tell.
    const renamed = await web.t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Renamed meanwhile' },
      { token: workspace.owner.token },
    );
    expect(renamed.status).toBe(200);
    await held?.();
    await sidebar(page).getByText('Renamed meanwhile').waitFor();
    // The browser's own reconnection (the same address, no `since` of the app's): it resent the
    // ended stream's cursor as Last-Event-ID (added below Playwright's interception, so not
    // read here), and the server replayed the rename that followed it.
    expect(streams).toHaveLength(2);
    expect(streams[1]).toBe(streams[0]);
    expect(new URL(streams[1] ?? '').searchParams.has('since')).toBe(false);
    await page.locator('[data-live="live"]').waitFor();
  });
});
