import { describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import { servedDescription } from '../helpers/openapi.js';

const t = useApp();

describe('OpenAPI description', () => {
  it('is OpenAPI 3.1 at /openapi.json and /api/openapi.json, with the bearer scheme', async () => {
    const root = await t.http.get('/openapi.json');
    const api = await t.api.get('/openapi.json');
    expect(root.status).toBe(200);
    expect(api.status).toBe(200);
    expect(root.body).toEqual(api.body);
    const document = await servedDescription(t.http);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe('0.1.0');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('describes every route, content routes once with both roots as servers', async () => {
    const document = await servedDescription(t.http);
    const described = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        if (method !== 'servers') described.add(`${method.toUpperCase()} ${path}`);
      }
    }
    const missing: string[] = [];
    for (const route of t.routes) {
      if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      if (route.url === '/openapi.json' || route.url === '/api/openapi.json') continue;
      if (route.url.startsWith('/api/docs')) continue;
      // The web app's files (src/web/): pages, not part of the API.
      if (route.url === '/app' || route.url.startsWith('/app/')) continue;
      // Internal: agents dial it with a node token; not part of the public surface (spec).
      if (route.url === '/api/agent/connect') continue;
      // Internal too: server processes reach each other's agents with the relay secret.
      if (route.url === '/api/tunnel/relay') continue;
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const mirrored = openApiPath.startsWith('/api/') ? openApiPath.slice(4) : null;
      const key = `${route.method} ${openApiPath}`;
      const mirrorKey = mirrored === null ? null : `${route.method} ${mirrored}`;
      if (!described.has(key) && (mirrorKey === null || !described.has(mirrorKey)))
        missing.push(key);
    }
    expect(t.routes.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
    expect(document.paths['/auth/login']?.servers?.map((server) => server.url)).toEqual([
      'http://localhost:8080',
      'http://localhost:8080/api',
    ]);
  });

  it('names every operation with an operationId of its own (generated clients key on it)', async () => {
    const document = await servedDescription(t.http);
    const seen = new Map<string, string[]>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'servers') continue;
        const id = (operation as { operationId?: string }).operationId;
        expect(id, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        seen.set(String(id), [...(seen.get(String(id)) ?? []), `${method} ${path}`]);
      }
    }
    const shared = [...seen].filter(([, operations]) => operations.length > 1);
    expect(shared).toEqual([]);
  });

  it('gives every operation the Error schema for errors and public routes no security', async () => {
    const document = await servedDescription(t.http);
    const login = document.paths['/auth/login']?.post;
    expect(login?.security).toEqual([]);
    expect(login?.responses['4XX']).toEqual({ $ref: '#/components/responses/Error' });
    expect(document.components.responses.Error?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(document.components.schemas.Error).toMatchObject({
      properties: { error: { required: ['code', 'message'] } },
    });
    const me = document.paths['/auth/me']?.get;
    expect(me).toBeDefined();
    expect(me?.security).toBeUndefined();
    expect(me?.responses['5XX']).toBeDefined();
  });
});

describe('interactive reference', () => {
  it('renders at /api/docs with its script served locally', async () => {
    const page = await t.http.get('/api/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('/api/openapi.json');
    const script = await t.http.get('/api/docs/js/scalar.js');
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
  });
});

describe('route access declarations', () => {
  it('every route declares what it accepts', () => {
    const undeclared = t.routes.filter(
      (route) => route.access === undefined && route.method !== 'HEAD',
    );
    expect(undeclared).toEqual([]);
  });
});

describe('route table', () => {
  it('tags each route with its interface and its pattern without the root', () => {
    const login = t.routes.filter((route) => route.canonicalUrl === '/auth/login');
    expect(login.map((route) => [route.url, route.api])).toEqual([
      ['/auth/login', 'content'],
      ['/api/auth/login', 'content'],
    ]);
    const docs = t.routes.find((route) => route.url === '/openapi.json');
    expect(docs?.api).toBe('system');
  });
});
