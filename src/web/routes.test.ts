import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, IMMUTABLE, NONCE_PLACEHOLDER } from './headers.js';
import { registerWebApp } from './routes.js';

const INDEX = `<!doctype html><html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}"><script type="module" src="/app/assets/index-abc123.js"></script></head></html>`;

/** The page as served: the build's page with the answer's own nonce in place of the placeholder. */
function servedIndex(answer: { body: string; headers: Record<string, unknown> }): string {
  const policy = String(answer.headers['content-security-policy']);
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(policy).toBe(contentSecurityPolicy(nonce ?? ''));
  expect(answer.body).toBe(INDEX.replace(NONCE_PLACEHOLDER, nonce ?? ''));
  return answer.body;
}

async function appServing(dist: string | null): Promise<FastifyInstance> {
  const app = Fastify();
  await registerWebApp(app, dist);
  await app.ready();
  return app;
}

describe('the web app under /app/', () => {
  let folder: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'sparrow-web-'));
    await mkdir(join(folder, 'assets'));
    await writeFile(join(folder, 'index.html'), INDEX);
    await writeFile(
      join(folder, 'assets', 'index-abc123.js'),
      `console.log(${'"x",'.repeat(2000)}1);`,
    );
    await writeFile(join(folder, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await appServing(folder);
  });
  afterAll(async () => {
    await app.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('answers index.html, never cached, with a strict policy and no framing', async () => {
    const page = await app.inject({ url: '/app/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    servedIndex(page);
    expect(page.headers['cache-control']).toBe('no-cache');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self';");
    // Inline style attributes only; never an inline script or style element.
    expect(policy.match(/unsafe-inline/g)).toHaveLength(1);
    expect(policy).toContain("style-src-attr 'unsafe-inline'");
    const again = await app.inject({ url: '/app/' });
    expect(again.headers['content-security-policy']).not.toBe(policy);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers index.html for any path of the app, so a deep link reloads', async () => {
    for (const url of ['/app/sign-in', '/app/acme/ACME-12?view=board', '/app/index.html']) {
      const page = await app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      servedIndex(page);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const script = await app.inject({
      url: '/app/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe(IMMUTABLE);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['content-encoding']).toBe('gzip');
    const other = await app.inject({ url: '/app/favicon.svg' });
    expect(other.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a missing asset and never leaves the build folder', async () => {
    expect((await app.inject({ url: '/app/assets/index-old.js' })).statusCode).toBe(404);
    for (const url of [
      '/app/../package.json',
      '/app/%2e%2e/%2e%2e/etc/passwd',
      '/app/..%2findex.html',
    ]) {
      const answer = await app.inject({ url });
      expect([200, 404], url).toContain(answer.statusCode);
      if (answer.statusCode === 200) servedIndex(answer);
    }
  });

  it('redirects /app to /app/', async () => {
    const answer = await app.inject({ url: '/app' });
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe('/app/');
  });
});

describe('a server without a built web app', () => {
  it('says so at /app/ (503, a page in words), not a 500', async () => {
    for (const dist of [null, join(tmpdir(), 'sparrow-web-missing')]) {
      const app = await appServing(dist);
      try {
        const page = await app.inject({ url: '/app/sign-in' });
        expect(page.statusCode).toBe(503);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('The web app is not built');
        expect(page.body).toContain('npm run build');
      } finally {
        await app.close();
      }
    }
  });
});
