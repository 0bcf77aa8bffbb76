import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, screenshot, useBrowserApp } from '../test/helpers/browser.js';
import type { TestUser, TestWorkspace } from '../test/helpers/factories.js';
import { cardWorkspace, readCard, signedInPage } from './card-helpers.js';

// A small limit, so a file over it is quick to make.
const web = useBrowserApp({ MAX_UPLOAD_BYTES: String(64 * 1024) });

/** Two 64×40 PNGs, blue and green. */
const BLUE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAPUlEQVR42u3PQQkAAAgEsCtjMuNbwgw+hcEKLNXzWgQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQELhYIL37TysoYdwAAAABJRU5ErkJggg==',
  'base64',
);
const GREEN = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAoCAIAAADBrGu+AAAAPUlEQVR42u3PQQkAAAgEsEthKGta1Aw+hcEKLDX9WgQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQELhZexR6XTdPe6gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A signed-in page whose file pickers Playwright takes from the start: the
 * interception is switched on asynchronously when the first listener comes,
 * and a picker opened by a quick key press could otherwise beat it.
 */
async function pickerPage(user: TestUser): Promise<Page> {
  const page = await signedInPage(web, user);
  page.on('filechooser', () => undefined);
  return page;
}

/** Chooses files with the "Insert image" button's file picker. */
async function chooseFiles(
  page: Page,
  files: Array<{ name: string; mimeType: string; buffer: Buffer }>,
) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Insert image' }).click();
  await (await chooser).setFiles(files);
}

/** The file ids of the card's image blocks, as the API has them. */
async function imageIds(workspace: TestWorkspace, itemId: string): Promise<string[]> {
  const blocks: Array<{ type: string; fileId?: string }> = (await readCard(web, workspace, itemId))
    .body.blocks.blocks;
  return blocks.flatMap((block) => (block.type === 'image' && block.fileId ? [block.fileId] : []));
}

/** The widths the body's images are shown at once loaded (0 for one that did not load). */
function shownWidths(page: Page) {
  return page
    .getByRole('textbox', { name: 'Body' })
    .locator('img')
    .evaluateAll((images) =>
      images.map((image) =>
        image instanceof HTMLImageElement && image.complete ? image.naturalWidth : 0,
      ),
    );
}

/** Sends files to the body as a paste (`paste`) or a drop (`drop`) of a person would. */
async function transferFiles(page: Page, kind: 'paste' | 'drop', name: string, bytes: Buffer) {
  await page.getByRole('textbox', { name: 'Body' }).evaluate(
    (body, { kind, name, base64 }) => {
      const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: 'image/png' }));
      const box = body.getBoundingClientRect();
      const event =
        kind === 'paste'
          ? new ClipboardEvent('paste', {
              clipboardData: transfer,
              bubbles: true,
              cancelable: true,
            })
          : new DragEvent('drop', {
              dataTransfer: transfer,
              clientX: box.left + 20,
              clientY: box.bottom - 8,
              bubbles: true,
              cancelable: true,
            });
      body.dispatchEvent(event);
    },
    { kind, name, base64: bytes.toString('base64') },
  );
}

describe('images in a card body', () => {
  it('inserts an image chosen with the picker, saved as an image block whose bytes are served', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await pickerPage(owner);
    // The upload waits until the test has seen it under way.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/workspaces/*/files', async (route) => {
      if (route.request().method() === 'POST') await released;
      await route.continue();
    });
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.keyboard.type('Before the picture');

    // By keyboard: Shift+Tab from the body reaches "Insert image", Enter opens the picker.
    await page.keyboard.press('Shift+Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Insert image');
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'blue.png', mimeType: 'image/png', buffer: BLUE });
    await page.getByRole('status').filter({ hasText: 'Uploading image…' }).waitFor();
    // Typing goes on while the image uploads, and is kept.
    await body.click();
    await page.keyboard.press('End');
    await page.keyboard.type(', typed meanwhile');
    release();
    await expect.poll(() => shownWidths(page)).toEqual([64]);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Uploading image…' }).count())
      .toBe(0);

    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.blocks.blocks, {
        timeout: 15_000,
      })
      .toEqual([
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'Before the picture, typed meanwhile' }],
        },
        { type: 'image', fileId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      ]);
    const [fileId] = await imageIds(workspace, item.id);
    const content = await page.request.get(`/workspaces/${workspace.id}/files/${fileId}/content`);
    expect(content.status()).toBe(200);
    expect(content.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await content.body()).equals(BLUE)).toBe(true);

    await page.reload();
    await expect.poll(() => shownWidths(page)).toEqual([64]);
    await screenshot(page, 'card-image-inserted');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('inserts images pasted and dropped into the body', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await pickerPage(owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('Pictures below');
    await transferFiles(page, 'paste', 'pasted.png', BLUE);
    await expect.poll(() => shownWidths(page)).toEqual([64]);
    await transferFiles(page, 'drop', 'dropped.png', GREEN);
    await expect.poll(() => shownWidths(page)).toEqual([64, 64]);
    // Chosen from the button, the image takes the focus back to the body, to type on after it.
    await chooseFiles(page, [{ name: 'chosen.png', mimeType: 'image/png', buffer: GREEN }]);
    await expect.poll(() => shownWidths(page)).toEqual([64, 64, 64]);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Body');
    await page.keyboard.type('Typed after');
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.body, { timeout: 15_000 })
      .toContain('Typed after');
    const image = { type: 'image', fileId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
    // Pasted at the cursor; dropped in the blank space below (the end); chosen at the cursor, on the
    // empty line the paste left; the typing after it.
    expect((await readCard(web, workspace, item.id)).body.blocks.blocks).toEqual([
      { type: 'paragraph', content: [{ type: 'text', text: 'Pictures below' }] },
      image,
      image,
      { type: 'paragraph', content: [{ type: 'text', text: 'Typed after' }] },
      image,
    ]);
    const served = await Promise.all(
      (await imageIds(workspace, item.id)).map(async (fileId) =>
        Buffer.from(
          await (
            await page.request.get(`/workspaces/${workspace.id}/files/${fileId}/content`)
          ).body(),
        ),
      ),
    );
    expect(
      served.map((bytes) => (bytes.equals(BLUE) ? 'blue' : bytes.equals(GREEN) ? 'green' : '?')),
    ).toEqual(['blue', 'green', 'green']);
  });

  it('refuses what is not an image, too large or not sent, in words, keeping what was typed', async () => {
    const { owner, workspace, item } = await cardWorkspace(web);
    const page = await pickerPage(owner);
    await page.goto(`/app/${workspace.slug}/${item.key}`);
    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.keyboard.type('Kept through every refusal');
    let uploads = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/files')) uploads += 1;
    });

    // Not an image by its type: refused in the browser, nothing sent.
    await chooseFiles(page, [
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') },
    ]);
    await page
      .getByRole('alert')
      .filter({ hasText: '“notes.txt” is not an image: only PNG, JPEG, GIF and WebP images' })
      .waitFor();
    expect(uploads).toBe(0);
    await screenshot(page, 'card-image-refused');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Named an image but not one by its bytes: the server says so; the stray file is deleted.
    await chooseFiles(page, [
      { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('plain text') },
    ]);
    await page
      .getByRole('alert')
      .filter({ hasText: '“fake.png” is not a PNG, JPEG, GIF or WebP' })
      .waitFor();
    await expect
      .poll(async () => {
        const files = await web.t.http.get(`/workspaces/${workspace.id}/files`, {
          token: owner.token,
        });
        return files.body.map((file: { name: string }) => file.name);
      })
      .toEqual([]);

    // Over the server's limit.
    await chooseFiles(page, [
      {
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: Buffer.concat([BLUE, Buffer.alloc(80_000)]),
      },
    ]);
    await page
      .getByRole('alert')
      .filter({
        hasText: '“huge.png” was not inserted: it is larger than the 64 KB a file may be.',
      })
      .waitFor();

    // Offline.
    await page.context().setOffline(true);
    await chooseFiles(page, [{ name: 'blue.png', mimeType: 'image/png', buffer: BLUE }]);
    await page
      .getByRole('alert')
      .filter({ hasText: '“blue.png” was not inserted: The server could not be reached.' })
      .waitFor();
    await page.context().setOffline(false);

    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await shownWidths(page)).toEqual([]);
    await expect
      .poll(async () => (await readCard(web, workspace, item.id)).body.blocks.blocks, {
        timeout: 15_000,
      })
      .toEqual([
        { type: 'paragraph', content: [{ type: 'text', text: 'Kept through every refusal' }] },
      ]);
  });
});
