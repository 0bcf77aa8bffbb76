import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/app.js';
import { createUser } from '../../../test/helpers/factories.js';
import { createKey, createOrg, createPlatformTestApp } from '../../../test/helpers/platform.js';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppModule } from '../../module.js';
import { authorizeKeyRoute, keyRuleFor, ROUTE_SCOPES } from './route-scopes.js';
import { SCOPES } from './scopes.js';

/** A platform route that the scope table does not name (as a later module might add). */
const unlistedModule: AppModule = {
  name: 'unlisted',
  platformRoutes(router) {
    router.get('/orgs/:orgId/unlisted', {
      config: { access: 'authenticated' },
      schema: {
        params: Strict({ orgId: Uuid }),
        response: { 200: Type.Object({ ok: Type.Boolean() }) },
      },
      handler: async () => ({ ok: true }),
    });
  },
};

let t: TestApp;

beforeAll(async () => {
  t = await createPlatformTestApp();
});
afterAll(() => t.close());

const orgRoutes = () =>
  t.routes.filter((route) => route.url.startsWith('/api/orgs') && route.method !== 'HEAD');

describe('the route-to-scope table', () => {
  it('names every registered /api/orgs route', () => {
    const unnamed = orgRoutes()
      .filter((route) => keyRuleFor(route.method, route.url) === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(orgRoutes().length).toBeGreaterThan(15);
    expect(unnamed).toEqual([]);
  });

  it('says session exactly for the session routes', () => {
    for (const route of orgRoutes()) {
      const rule = keyRuleFor(route.method, route.url);
      expect(rule === 'session', `${route.method} ${route.url}`).toBe(route.access === 'session');
    }
  });

  it('follows the spec: GET needs :read, others :write, worker terminals, SSH tokens and exec :exec', () => {
    for (const [key, rule] of Object.entries(ROUTE_SCOPES)) {
      const [method = '', url = ''] = key.split(' ');
      expect(url, key).toMatch(/^\/api\//);
      if (rule === 'session') continue;
      if (rule === 'any-key') {
        expect(method, key).toBe('GET');
        continue;
      }
      expect(rule.length, key).toBeGreaterThan(0);
      for (const scope of rule) expect(SCOPES, key).toContain(scope);
      const exec = /\/workers\/:workerId\/(terminals?|ssh-token|exec|commands)/.test(url);
      const [primary] = rule;
      if (exec) expect(rule, key).toEqual(['workers:exec']);
      else if (method === 'GET') expect(primary, key).toMatch(/:read$/);
      else expect(primary, key).toMatch(/:write$/);
    }
  });

  it('answers HEAD like GET and is fail-closed for anything else', () => {
    expect(keyRuleFor('HEAD', '/api/orgs/:orgId/projects')).toEqual(['projects:read']);
    expect(keyRuleFor('GET', '/api/orgs/:orgId/nowhere')).toBeUndefined();
    const route = (method: string, url: string, api: 'content' | 'platform' = 'platform') => ({
      method,
      url,
      api,
    });
    expect(() => authorizeKeyRoute(['*'], route('GET', '/api/orgs/:orgId/nowhere'))).toThrowError(
      expect.objectContaining({ status: 403, code: 'key_not_allowed' }),
    );
    expect(() => authorizeKeyRoute(['*'], route('GET', '/workspaces', 'content'))).toThrowError(
      expect.objectContaining({ status: 403, code: 'key_not_allowed' }),
    );
    expect(() => authorizeKeyRoute(['*'], route('GET', '/api/users/me'))).toThrowError(
      expect.objectContaining({ code: 'key_not_allowed' }),
    );
    expect(() =>
      authorizeKeyRoute(
        ['projects:write'],
        route('POST', '/api/orgs/:orgId/projects/:projectId/secrets'),
      ),
    ).toThrowError(
      expect.objectContaining({
        code: 'missing_scope',
        message: 'This API key lacks the scope secrets:write',
      }),
    );
    expect(() =>
      authorizeKeyRoute(['*'], route('POST', '/api/orgs/:orgId/projects/:projectId/secrets')),
    ).not.toThrow();
    expect(() => authorizeKeyRoute(['nodes:read'], route('GET', '/api/orgs/:orgId'))).not.toThrow();
  });

  it('refuses every key on a registered route it does not name, and serves people', async () => {
    const app = await createPlatformTestApp({}, [unlistedModule]);
    try {
      const person = await createUser(app);
      const team = await createOrg(app, person);
      const key = await createKey(app, team, person, ['*'], 'org');
      const byKey = await app.api.get(`/orgs/${team.id}/unlisted`, { token: key.token });
      expect(byKey.status).toBe(403);
      expect(byKey.body.error.code).toBe('key_not_allowed');
      const byPerson = await app.api.get(`/orgs/${team.id}/unlisted`, { token: person.token });
      expect(byPerson.status).toBe(200);
      // And the table test above would name it as missing.
      expect(
        app.routes.some(
          (r) => r.url === '/api/orgs/:orgId/unlisted' && keyRuleFor(r.method, r.url) === undefined,
        ),
      ).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('the OpenAPI description', () => {
  it('lists every route of the platform core and states what a key needs', async () => {
    const document = (await t.api.get('/openapi.json')).body;
    const expected = [
      'get /api/orgs',
      'post /api/orgs',
      'get /api/orgs/{orgId}',
      'get /api/orgs/{orgId}/members',
      'post /api/orgs/{orgId}/members',
      'patch /api/orgs/{orgId}/members/{userId}',
      'delete /api/orgs/{orgId}/members/{userId}',
      'get /api/orgs/{orgId}/projects',
      'post /api/orgs/{orgId}/projects',
      'get /api/orgs/{orgId}/projects/{projectId}',
      'patch /api/orgs/{orgId}/projects/{projectId}',
      'delete /api/orgs/{orgId}/projects/{projectId}',
      'get /api/orgs/{orgId}/projects/{projectId}/secrets',
      'post /api/orgs/{orgId}/projects/{projectId}/secrets',
      'delete /api/orgs/{orgId}/projects/{projectId}/secrets/{secretId}',
      'get /api/orgs/{orgId}/projects/{projectId}/versions',
      'get /api/orgs/{orgId}/projects/{projectId}/versions/{version}',
      'post /api/orgs/{orgId}/projects/{projectId}/versions/{version}/restore',
      'get /api/orgs/{orgId}/api-keys',
      'post /api/orgs/{orgId}/api-keys',
      'delete /api/orgs/{orgId}/api-keys/{keyId}',
      'get /api/users/me',
      'patch /api/users/me',
      'get /api/users/me/secrets',
      'post /api/users/me/secrets',
      'delete /api/users/me/secrets/{secretId}',
    ];
    for (const entry of expected) {
      const [method = '', path = ''] = entry.split(' ');
      const operation = document.paths[path]?.[method];
      expect(operation, entry).toBeDefined();
      expect(operation.operationId, entry).toEqual(expect.any(String));
      expect(operation.description, entry).toMatch(/\*\*API keys:\*\* /);
    }
    const patch = document.paths['/api/orgs/{orgId}/projects/{projectId}'].patch;
    expect(patch.description).toContain('`projects:write`');
    expect(document.paths['/api/orgs/{orgId}/api-keys'].post.description).toContain(
      'session_required',
    );
  });
});
