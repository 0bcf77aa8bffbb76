import { createHash, randomBytes } from 'node:crypto';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { createWorkspace } from '../../../test/helpers/factories.js';
import type { AppModule } from '../../module.js';
import { APP_ROUTE_SCOPES, appRuleFor, authorizeAppRoute } from './route-scopes.js';
import { SCOPE_NAMES } from './scopes.js';

/** A content route the table does not name, as a later module might add. */
const unlistedModule: AppModule = {
  name: 'unlisted',
  contentRoutes(router) {
    router.get('/unlisted-probe', {
      config: { access: 'authenticated' },
      schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } },
      handler: async () => ({ ok: true }),
    });
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const contentRoutes = () =>
  t.routes.filter((route) => route.api === 'content' && route.method !== 'HEAD');

describe('the app route-to-scope table', () => {
  it('names every registered content route', () => {
    const unnamed = contentRoutes()
      .filter((route) => appRuleFor(route.method, route.canonicalUrl) === undefined)
      .map((route) => `${route.method} ${route.canonicalUrl}`);
    expect(contentRoutes().length).toBeGreaterThan(100);
    expect([...new Set(unnamed)]).toEqual([]);
  });

  it('says public and session exactly where the routes declare them', () => {
    for (const route of contentRoutes()) {
      const rule = appRuleFor(route.method, route.canonicalUrl);
      const key = `${route.method} ${route.canonicalUrl}`;
      expect(rule === 'public', key).toBe(route.access === 'public');
      expect(rule === 'session', key).toBe(route.access === 'session');
    }
  });

  it('uses known scopes, read scopes for GET and write scopes for writes, POST reads named', () => {
    const postReads = ['query', 'group-counts', 'grouped-query', 'bulk-preview'];
    for (const [key, rule] of Object.entries(APP_ROUTE_SCOPES)) {
      if (typeof rule === 'string') continue;
      const [method = '', url = ''] = key.split(' ');
      expect(rule.length, key).toBeGreaterThan(0);
      for (const scope of rule) expect(SCOPE_NAMES, key).toContain(scope);
      const read = method === 'GET' || postReads.some((name) => url.endsWith(`/${name}`));
      for (const scope of rule) expect(scope, key).toMatch(read ? /:read$/ : /:write$/);
    }
  });

  it('is fail-closed for a route it does not name, and for other interfaces', () => {
    expect(appRuleFor('HEAD', '/workspaces/:workspaceId/events')).toEqual(['events:read']);
    expect(() =>
      authorizeAppRoute(['items:read'], { method: 'GET', url: '/nowhere', api: 'content' }),
    ).toThrowError(expect.objectContaining({ status: 403, code: 'app_not_allowed' }));
    expect(() =>
      authorizeAppRoute(['items:read'], { method: 'GET', url: '/api/orgs', api: 'platform' }),
    ).toThrowError(expect.objectContaining({ code: 'app_not_allowed' }));
    expect(() =>
      authorizeAppRoute([], {
        method: 'GET',
        url: '/workspaces/:workspaceId/events',
        api: 'content',
      }),
    ).toThrowError(expect.objectContaining({ code: 'missing_scope' }));
  });

  it('refuses an app token on a registered route the table does not name', async () => {
    const probe = await createTestApp({}, [unlistedModule]);
    try {
      const workspace = await createWorkspace(probe);
      const app = (
        await probe.http.post(
          '/apps',
          { name: 'Probe', redirectUris: ['https://x.example.test/cb'], scopes: ['items:read'] },
          { token: workspace.owner.token },
        )
      ).body;
      const verifier = randomBytes(32).toString('base64url');
      const granted = await probe.http.post(
        '/oauth/authorize',
        {
          clientId: app.clientId,
          redirectUri: 'https://x.example.test/cb',
          workspaceId: workspace.id,
          scopes: ['items:read'],
          codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
          codeChallengeMethod: 'S256',
        },
        { token: workspace.owner.token },
      );
      const token = (
        await probe.http.post('/oauth/token', {
          code: granted.body.code,
          clientSecret: app.clientSecret,
          redirectUri: 'https://x.example.test/cb',
          codeVerifier: verifier,
        })
      ).body.access_token;
      const response = await probe.http.get('/unlisted-probe', { token });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('app_not_allowed');
      expect((await probe.api.get('/unlisted-probe', { token })).status).toBe(403);
      expect(
        (await probe.http.get('/unlisted-probe', { token: workspace.owner.token })).status,
      ).toBe(200);
    } finally {
      await probe.close();
    }
  });
});
