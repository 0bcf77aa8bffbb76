import { createHash, randomBytes } from 'node:crypto';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createTestApp } from '../../../test/helpers/app.js';
import { createWorkspace } from '../../../test/helpers/factories.js';
import { servedDescription } from '../../../test/helpers/openapi.js';
import type { RouteRef } from '../../http/auth.js';
import type { AppModule } from '../../module.js';
import { authorizeAppRoute } from './route-scopes.js';
import { SCOPE_NAMES } from './scopes.js';

/** A content route declared without the helpers, so with no app rule. */
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

const t = useApp();

const contentRoutes = () =>
  t.routes.filter((route) => route.api === 'content' && route.method !== 'HEAD');

const ruleOf = (method: string, url: string) =>
  t.routes.find((route) => route.method === method && route.canonicalUrl === url);

describe('the app rules declared with the routes', () => {
  it('declare every content route but the public ones through the helpers', () => {
    const undeclared = contentRoutes()
      .filter((route) => !route.declared)
      .map((route) => `${route.method} ${route.canonicalUrl}`);
    expect(contentRoutes().length).toBeGreaterThan(100);
    expect([...new Set(undeclared)]).toEqual([]);
  });

  it('give no rule to public and session routes', () => {
    for (const route of contentRoutes()) {
      if (route.access === 'public' || route.access === 'session') {
        expect(route.rule, `${route.method} ${route.canonicalUrl}`).toBeUndefined();
      }
    }
  });

  it('use known scopes, read scopes for GET and write scopes for writes, POST reads named', () => {
    const postReads = ['query', 'group-counts', 'grouped-query', 'bulk-preview'];
    let scoped = 0;
    for (const route of contentRoutes()) {
      const key = `${route.method} ${route.canonicalUrl}`;
      if (route.rule === undefined) continue;
      if (route.rule === 'any') {
        expect(route.method, key).toBe('GET');
        continue;
      }
      scoped++;
      expect(route.rule.length, key).toBeGreaterThan(0);
      const read =
        route.method === 'GET' || postReads.some((name) => route.canonicalUrl.endsWith(`/${name}`));
      for (const scope of route.rule) {
        expect(SCOPE_NAMES, key).toContain(scope);
        expect(scope, key).toMatch(read ? /:read$/ : /:write$/);
      }
    }
    expect(scoped).toBeGreaterThan(60);
  });

  it('keep members, keys and invitations for people, and an app off its workspace record', () => {
    expect(ruleOf('GET', '/workspaces/:workspaceId/events')?.rule).toEqual(['events:read']);
    expect(ruleOf('HEAD', '/workspaces/:workspaceId/events')?.rule).toEqual(['events:read']);
    expect(ruleOf('GET', '/workspaces/:workspaceId')?.rule).toBe('any');
    const refused = ruleOf('PATCH', '/workspaces/:workspaceId');
    expect([refused?.access, refused?.rule]).toEqual(['authenticated', undefined]);
    for (const url of ['api-keys', 'invitations', 'app-installations']) {
      expect(ruleOf('GET', `/workspaces/:workspaceId/${url}`)?.access, url).toBe('session');
    }
  });

  it('are fail-closed for routes declared without a rule or without the helpers, and elsewhere', () => {
    const route = (extra: Partial<RouteRef>): RouteRef => ({
      method: 'GET',
      url: '/workspaces/:workspaceId/events',
      api: 'content',
      declared: true,
      rule: ['events:read'],
      ...extra,
    });
    const refused = expect.objectContaining({ status: 403, code: 'app_not_allowed' });
    expect(() => authorizeAppRoute(['events:read'], route({}))).not.toThrow();
    expect(() => authorizeAppRoute(['events:read'], route({ declared: false }))).toThrowError(
      refused,
    );
    expect(() => authorizeAppRoute(['events:read'], route({ rule: undefined }))).toThrowError(
      refused,
    );
    expect(() => authorizeAppRoute(['events:read'], route({ api: 'platform' }))).toThrowError(
      refused,
    );
    expect(() => authorizeAppRoute([], route({}))).toThrowError(
      expect.objectContaining({ code: 'missing_scope' }),
    );
    expect(() => authorizeAppRoute([], route({ rule: 'any' }))).not.toThrow();
  });

  it('are stated in the API description of each route', async () => {
    const document = await servedDescription(t.http);
    const events = document.paths['/workspaces/{workspaceId}/events']?.get?.description;
    expect(events).toContain('**Apps:** need the scope `events:read`.');
    expect(events).toContain('**Role:**');
    expect(document.paths['/workspaces/{workspaceId}']?.patch?.description).toContain(
      '**Apps:** refused (403 `app_not_allowed`).',
    );
    expect(document.paths['/workspaces/{workspaceId}/api-keys']?.get?.description).toContain(
      '**Apps and API keys:** refused; for signed-in people.',
    );
  });

  it('refuses an app token on a route declared without the helpers, and serves people', async () => {
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
