import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import {
  createCollection,
  createItem,
  createWorkspace,
  type TestUser,
} from '../test/helpers/factories.js';
import { type Receiver, startReceiver } from '../test/helpers/receiver.js';

// Loopback receivers are allowed here; a failed attempt is retried at once, then final.
const web = useBrowserApp(
  {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '0,0,0,0,0',
    WEBHOOK_POLL_INTERVAL_MS: '100',
  },
  { background: true },
);

let goodReceiver: Receiver | undefined;
let brokenReceiver: Receiver | undefined;
beforeAll(async () => {
  goodReceiver = await startReceiver();
  brokenReceiver = await startReceiver();
  brokenReceiver.respond(500);
});

function receiver(which: Receiver | undefined): Receiver {
  if (which === undefined) throw new Error('the receivers start before the tests');
  return which;
}
afterAll(async () => {
  await goodReceiver?.close();
  await brokenReceiver?.close();
});

/** A page signed in as `user` (the session cookie the sign-in screen would set). */
async function signedIn(user: TestUser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await web.page({ colorScheme });
  await page.context().addCookies([{ name: 'session', value: user.token, url: web.url }]);
  return page;
}

/** Adds an endpoint on the screen; answers its signing secret, shown once. */
async function addEndpoint(page: Page, url: string, patterns: string): Promise<string> {
  const form = page.getByRole('region', { name: 'Add an endpoint' });
  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Event types').fill(patterns);
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const shown = page.getByRole('region', { name: `The signing secret of ${url}` });
  const secret = (await shown.locator('code').textContent()) ?? '';
  await shown.getByRole('button', { name: 'Done' }).click();
  return secret;
}

function verifies(header: string, raw: string, secret: string): boolean {
  const timestamp = /t=(\d+)/.exec(header)?.[1] ?? '';
  const expected = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
  return header.split(',').includes(`v1=${expected}`);
}

describe('webhooks', () => {
  it('adds endpoints with their secret shown once; a receiver gets signed deliveries', async () => {
    const good = receiver(goodReceiver);
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace);
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/webhooks`);
    await page.getByText('No endpoint yet.').waitFor();

    // A pattern the log does not know is refused next to the patterns, and the URL stays.
    const form = page.getByRole('region', { name: 'Add an endpoint' });
    await form.getByLabel('URL').fill(good.url);
    await form.getByLabel('Event types').fill('cards.*');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form.getByLabel('Event types').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await form.getByLabel('URL').inputValue()).toBe(good.url);

    const secret = await addEndpoint(page, good.url, 'item.*, field.created');
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: new RegExp(good.url) }).waitFor();
    await page.getByText('item.*, field.created').waitFor();
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'webhooks-list');
    expect(await accessibilityViolations(page)).toEqual([]);

    await createItem(web.t, workspace, list.id, { title: 'Ship it' });
    await expect.poll(() => good.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const [delivery] = good.received;
    expect(delivery?.body.type).toBe('item.created');
    expect(
      verifies(String(delivery?.headers['x-service-signature']), delivery?.raw ?? '', secret),
    ).toBe(true);

    await page.getByRole('link', { name: new RegExp(good.url) }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByText('Succeeded', { exact: true }).first().waitFor();
    await page.getByText(/1 attempt · last answer 200/).waitFor();
  });

  it('shows a failed delivery with its attempts and error, and replays it', async () => {
    const broken = receiver(brokenReceiver);
    const workspace = await createWorkspace(web.t);
    const list = await createCollection(web.t, workspace);
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/webhooks`);
    await addEndpoint(page, broken.url, '*');
    await createItem(web.t, workspace, list.id, { title: 'Broken' });
    // Six attempts, all answered 500: the delivery is final.
    await expect.poll(() => broken.received.length, { timeout: 20_000 }).toBe(6);

    await page.getByRole('link', { name: new RegExp(broken.url) }).click();
    const delivery = page.getByRole('listitem', { name: /^Delivery item\.created/ });
    await delivery.getByText('Failed', { exact: true }).first().waitFor();
    await delivery.getByText(/6 attempts · last answer 500/).waitFor();
    await delivery.getByText('Attempts', { exact: true }).first().click();
    await delivery.getByText(/^#1 · .* answered 500/).waitFor();
    await screenshot(page, 'webhook-failed');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The receiver is fixed: a replay is one more attempt, which succeeds.
    broken.respond(200);
    await delivery.getByRole('button', { name: /^Replay the delivery/ }).click();
    await delivery.getByText('Succeeded', { exact: true }).first().waitFor();
    await delivery.getByText(/7 attempts · last answer 200/).waitFor();
    expect(broken.received).toHaveLength(7);
  });

  it('pauses and resumes an endpoint, rotates its secret (shown once) and deletes it', async () => {
    const good = receiver(goodReceiver);
    const workspace = await createWorkspace(web.t);
    const page = await signedIn(workspace.owner);
    await page.goto(`/app/${workspace.slug}/settings/webhooks`);
    await addEndpoint(page, good.url, 'item.*');
    await page.getByRole('link', { name: new RegExp(good.url) }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Active', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const shown = page.getByRole('region', { name: 'The new signing secret' });
    expect((await shown.locator('code').textContent()) ?? '').toMatch(/^whsec_/);
    await page.getByText(/the previous one signs too until/).waitFor();
    await screenshot(page, 'webhook-rotated');

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this endpoint?' })
      .getByRole('button', { name: 'Delete endpoint' })
      .click();
    await page.getByText('No endpoint yet.').waitFor();
  });

  it('looks right in dark', async () => {
    const good = receiver(goodReceiver);
    const workspace = await createWorkspace(web.t);
    const page = await signedIn(workspace.owner, 'dark');
    await page.goto(`/app/${workspace.slug}/settings/webhooks`);
    await addEndpoint(page, good.url, 'item.*');
    await page.getByRole('link', { name: new RegExp(good.url) }).click();
    await page.getByText('No delivery yet.').waitFor();
    await screenshot(page, 'webhook-detail-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
