import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startBackground } from '../../src/app.js';
import { modules } from '../../src/modules.js';
import { createTestApp, type TestApp } from './app.js';

/** Debian's Chromium (scripts/browser/setup.sh installs it); Playwright never downloads one. */
export const CHROMIUM = process.env.SPARROW_CHROMIUM ?? '/usr/bin/chromium';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('freePort: no port');
  return address.port;
}

export interface BrowserApp {
  /** The real application, listening; its `http` client reaches it by inject. */
  readonly t: TestApp;
  /** Where it listens (also its PUBLIC_URL, so the app's writes pass the origin check). */
  readonly url: string;
  /** A page of a new browser context (own cookies), in a light or dark scheme. */
  page(options?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
}

/**
 * The real application on a fresh database, listening on a port of its own,
 * and one Chromium for the test file, which drives the built web app that
 * this server serves (test/web-setup.ts builds it when missing or stale).
 * `background`: also run the modules' background tasks (webhook deliveries).
 */
export function useBrowserApp(
  env:
    | Record<string, string>
    | ((url: string) => Promise<Record<string, string>> | Record<string, string>) = {},
  options: { background?: boolean } = {},
): BrowserApp {
  let t: TestApp | undefined;
  let url: string | undefined;
  let browser: Browser | undefined;
  let stopBackground: (() => Promise<void>) | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // Settings that need the address (an identity provider that redirects back here) are a function of it.
    const settings = typeof env === 'function' ? await env(url) : env;
    t = await createTestApp({ PUBLIC_URL: url, ...settings });
    await t.app.listen({ port, host: '127.0.0.1' });
    // Asked for (webhook deliveries): the background tasks `sparrow serve` runs. Not by default:
    // the other screens need none, and a file then loads the machine less.
    if (options.background === true) stopBackground = await startBackground(t.ctx, modules);
    if (!existsSync(CHROMIUM)) {
      throw new Error(`No Chromium at ${CHROMIUM}: run scripts/browser/setup.sh (as root)`);
    }
    // As root (CI's container) Chromium runs only without its sandbox.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stopBackground?.();
    await t?.close();
  });
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useBrowserApp: ${name} exists inside tests only`);
    return value;
  };
  return {
    get t() {
      return ready(t, 'the app');
    },
    get url() {
      return ready(url, 'the url');
    },
    async page({ colorScheme = 'light' } = {}) {
      const context = await ready(browser, 'the browser').newContext({
        baseURL: ready(url, 'the url'),
        colorScheme,
      });
      contexts.push(context);
      // Chromium's console line does not say what was refused: the event's sample does.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `Content Security Policy refused ${event.effectiveDirective} "${event.sample}" from ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
          );
        });
      });
      const page = await context.newPage();
      // A page that throws or breaks its policy fails the run.
      page.on('pageerror', (error) => {
        throw error;
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
          const { url, lineNumber, columnNumber } = message.location();
          throw new Error(
            `The page broke its policy: ${message.text()} (at ${url}:${lineNumber}:${columnNumber}, page ${page.url()})`,
          );
        }
      });
      return page;
    },
  };
}

/** The serious and critical accessibility violations axe-core finds on the page, by rule. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

/** The text of what describes a control (`aria-describedby`): its hint and its refusal. */
export async function descriptionOf(page: Page, label: string): Promise<string> {
  const ids = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
  const texts: string[] = [];
  for (const id of (ids ?? '').split(' ').filter(Boolean)) {
    texts.push((await page.locator(`[id="${id}"]`).textContent()) ?? '');
  }
  return texts.join(' ').trim();
}

/**
 * Saves a screenshot of the page when SPARROW_SCREENSHOTS names a folder
 * (to look at the screens; never committed).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.SPARROW_SCREENSHOTS;
  if (folder === undefined || folder === '') return;
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}
