import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  descriptionOf,
  screenshot,
  useBrowserApp,
} from '../test/helpers/browser.js';
import { createUser, createWorkspace, TEST_PASSWORD } from '../test/helpers/factories.js';

const web = useBrowserApp();

describe('the session cookie from another origin, and slugs the app uses', () => {
  it('changes nothing when a page of another origin posts a form or fetches with the cookie', async () => {
    const owner = await createUser(web.t);
    const workspace = await createWorkspace(web.t, owner, 'Untouched');
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Untouched/ }).waitFor();

    // Another port of the same host: another origin of the same site, so the Lax cookie goes along.
    const elsewhere = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><html lang="en"><title>Elsewhere</title>
<form method="post" action="${web.url}/workspaces"><input name="name" value="Forged"><input name="slug" value="forged"><button>Create</button></form></html>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const neighbour = await page.context().newPage();
      await neighbour.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      const formAnswer = neighbour.waitForResponse(`${web.url}/workspaces`);
      await neighbour.getByRole('button', { name: 'Create' }).click();
      // Refused for its origin, whatever its content type (a form's body is not JSON).
      expect((await formAnswer).status()).toBe(403);
      expect(await (await formAnswer).json()).toMatchObject({
        error: { code: 'origin_not_allowed' },
      });

      await neighbour.goBack();
      const statuses = await neighbour.evaluate(
        async ({ target, id }) => {
          const created = await fetch(`${target}/workspaces`, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ name: 'Forged', slug: 'forged-fetch' }),
          });
          let renamed = 'sent';
          try {
            await fetch(`${target}/workspaces/${id}`, {
              method: 'PATCH',
              credentials: 'include',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ name: 'Renamed' }),
            });
          } catch {
            renamed = 'blocked';
          }
          return { created: created.type, renamed };
        },
        { target: web.url, id: workspace.id },
      );
      // The no-cors answer is opaque to the page; the server's refusal is checked below by its effect.
      expect(statuses.created).toBe('opaque');
      expect(statuses.renamed).toBe('blocked');
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
    const list = await web.t.http.get('/workspaces', { token: owner.token });
    expect(list.body.map((each: { name: string }) => each.name)).toEqual(['Untouched']);
    await page.reload();
    await page.getByRole('link', { name: /Untouched/ }).waitFor();
    expect(await page.getByRole('link', { name: /Forged/ }).count()).toBe(0);
  });

  it('refuses a workspace slug the app uses as a path, next to the Slug field', async () => {
    const owner = await createUser(web.t);
    const page = await web.page({ colorScheme: 'dark' });
    await page.goto('/app/sign-in');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    const form = page.getByRole('region', { name: 'Create a workspace' });
    await form.getByLabel('Name').fill('Invitations');
    await form.getByLabel('Slug').fill('invite');
    await form.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('is a path of the web app').waitFor();
    expect(await descriptionOf(page, 'Slug')).toContain('"invite" is a path of the web app');
    expect(await form.getByLabel('Name').inputValue()).toBe('Invitations');
    await screenshot(page, 'slug-reserved-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

describe('style elements and the policy', () => {
  /** Adds a style element setting `--probe-{how}` on the body, and reads whether it applied. */
  const probe = (how: string) => {
    const css = `body { --probe-${how}: on; }`;
    if (how === 'script') {
      const style = document.createElement('style');
      style.textContent = css;
      document.head.append(style);
    } else {
      document.head.insertAdjacentHTML('beforeend', `<style>${css}</style>`);
    }
    return getComputedStyle(document.body).getPropertyValue(`--probe-${how}`).trim();
  };

  it("applies a style element the app's code creates late, and refuses one injected as markup", async () => {
    const page = await web.page();
    await page.goto('/app/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Long after the start, as xterm or a dialog does: the page's nonce is on it.
    expect(await page.evaluate(probe, 'script')).toBe('on');

    // Markup is refused (a page of its own: a refusal fails the helper's pages).
    const other = await page.context().newPage();
    const refusals: string[] = [];
    other.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refusals.push(message.text());
    });
    await other.goto('/app/sign-in');
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await other.evaluate(probe, 'markup')).toBe('');
    await expect.poll(() => refusals.join('\n')).toContain('--probe-markup');
  });
});
