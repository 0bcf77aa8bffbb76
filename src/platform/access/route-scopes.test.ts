import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import type { HttpMethod } from '../../../test/helpers/api-types.js';
import { createUser } from '../../../test/helpers/factories.js';
import { servedDescription } from '../../../test/helpers/openapi.js';
import { createKey, createOrg, createPlatformTestApp } from '../../../test/helpers/platform.js';
import type { RouteRecord } from '../../app.js';
import type { RouteRef } from '../../http/auth.js';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppModule } from '../../module.js';
import { ORG_PERMISSIONS } from './roles.js';
import { authorizeKeyRoute } from './route-scopes.js';
import { SCOPES } from './scopes.js';

/** A platform route declared without the helpers, so with no key rule. */
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

/** A WebSocket route written by hand, not through `socketRoutes`: no guard declared beside it. */
const rawSocketModule: AppModule = {
  name: 'raw-socket',
  platformRoutes(router) {
    router.route({
      method: 'GET',
      url: '/raw-socket/:runId',
      config: { access: 'authenticated', rule: ['deployments:read'], declared: true },
      schema: { params: Strict({ runId: Uuid }) },
      handler: async () => ({ ok: true }),
      wsHandler: (socket) => socket.close(1000),
    });
  },
};

/**
 * The platform routes that name no role permission and are not public: the
 * organization list and creation (no organization yet), one's own account,
 * and the tool server (each tool's REST call checks its own).
 */
const OUTSIDE_ORGANIZATIONS = [
  'GET /api/orgs',
  'POST /api/orgs',
  'GET /api/users/me',
  'PATCH /api/users/me',
  'GET /api/users/me/secrets',
  'POST /api/users/me/secrets',
  'DELETE /api/users/me/secrets/:secretId',
  'POST /mcp',
];

/**
 * The platform routes whose guard is missing or unknown: a route in an
 * organization or a socket opened by a member must name a role permission;
 * a public socket, the credential it checks.
 */
function unguarded(routes: readonly RouteRecord[]): string[] {
  return routes
    .filter((route) => {
      const name = `${route.method} ${route.url}`;
      if (route.websocket && route.access === 'public') return route.guard === undefined;
      if (route.access === 'public') return false;
      if (route.guard === undefined) return !OUTSIDE_ORGANIZATIONS.includes(name);
      return !Object.hasOwn(ORG_PERMISSIONS, route.guard);
    })
    .map((route) => `${route.method} ${route.url}`);
}

const t = useApp(() => createPlatformTestApp());

const platformRoutes = () =>
  t.routes.filter((route) => route.api === 'platform' && route.method !== 'HEAD');
const ruleOf = (method: string, url: string) =>
  platformRoutes().find((route) => route.method === method && route.url === url);

describe('the key rules declared with the routes', () => {
  it('declare every platform route but the public ones through the helpers', () => {
    const undeclared = platformRoutes()
      .filter((route) => route.access !== 'public' && !route.declared)
      .map((route) => `${route.method} ${route.url}`);
    expect(platformRoutes().length).toBeGreaterThan(40);
    expect(undeclared).toEqual([]);
  });

  it('name a role permission on every route in an organization and a guard on every socket', () => {
    expect(unguarded(platformRoutes())).toEqual([]);
    const sockets = platformRoutes().filter((route) => route.websocket);
    expect(sockets.map((route) => `${route.url} ${route.guard}`).sort()).toEqual([
      '/api/agent/connect node token',
      '/api/image-builds/:buildId/logs projects.read',
      '/api/job-runs/:runId/logs deployments.read',
      '/api/services/:serviceId/shell deployments.write',
      '/api/services/:serviceId/terminal deployments.read',
      '/api/tunnel/relay relay secret',
      '/api/workers/:workerId/terminal workers.use',
    ]);
    const orgRoutes = platformRoutes().filter((route) => route.url.startsWith('/api/orgs/:orgId'));
    expect(orgRoutes.length).toBeGreaterThan(60);
    for (const route of orgRoutes) {
      expect(route.guard, `${route.method} ${route.url}`).toEqual(expect.any(String));
    }
  });

  it('name a socket written without the helper as unguarded', async () => {
    const app = await createPlatformTestApp({}, [rawSocketModule]);
    try {
      const raw = app.routes.filter((route) => route.url === '/api/raw-socket/:runId');
      expect(raw.some((route) => route.websocket)).toBe(true);
      expect(unguarded(raw.filter((route) => route.method === 'GET'))).toEqual([
        'GET /api/raw-socket/:runId',
      ]);
    } finally {
      await app.close();
    }
  });

  it('give no rule to session routes', () => {
    for (const route of platformRoutes()) {
      if (route.access === 'session')
        expect(route.rule, `${route.method} ${route.url}`).toBeUndefined();
    }
  });

  it('follow the spec: GET needs :read, others :write, worker terminals, SSH tokens and exec :exec', () => {
    let scoped = 0;
    for (const route of platformRoutes()) {
      const key = `${route.method} ${route.url}`;
      if (route.access === 'public' || route.rule === undefined) continue;
      if (route.rule === 'any') {
        // The tool server takes any key: each tool's REST call checks its own scope.
        if (route.url !== '/mcp') expect(route.method, key).toBe('GET');
        continue;
      }
      scoped++;
      expect(route.rule.length, key).toBeGreaterThan(0);
      for (const scope of route.rule) expect(SCOPES, key).toContain(scope);
      const exec = /\/workers\/:workerId\/(terminals?|ssh-token|exec|commands)/.test(route.url);
      const [primary] = route.rule;
      // A service's shell can change what runs: writing, not reading (see its description).
      const shell = route.url.endsWith('/services/:serviceId/shell');
      if (exec) expect(route.rule, key).toEqual(['workers:exec']);
      else if (shell) expect(route.rule, key).toEqual(['deployments:write']);
      else if (route.method === 'GET') expect(primary, key).toMatch(/:read$/);
      else expect(primary, key).toMatch(/:write$/);
    }
    expect(scoped).toBeGreaterThan(30);
    expect(ruleOf('POST', '/api/orgs/:orgId/projects/:projectId/secrets')?.rule).toEqual([
      'projects:write',
      'secrets:write',
    ]);
    expect(ruleOf('GET', '/api/orgs/:orgId')?.rule).toBe('any');
    expect(ruleOf('POST', '/api/orgs/:orgId/api-keys')?.access).toBe('session');
  });

  it('are fail-closed for routes declared without a rule or without the helpers, and elsewhere', () => {
    const route = (extra: Partial<RouteRef>): RouteRef => ({
      method: 'POST',
      url: '/api/orgs/:orgId/projects/:projectId/secrets',
      api: 'platform',
      declared: true,
      rule: ['projects:write', 'secrets:write'],
      ...extra,
    });
    const refused = expect.objectContaining({ status: 403, code: 'key_not_allowed' });
    expect(() => authorizeKeyRoute(['*'], route({}))).not.toThrow();
    expect(() => authorizeKeyRoute(['*'], route({ declared: false }))).toThrowError(refused);
    expect(() => authorizeKeyRoute(['*'], route({ rule: undefined }))).toThrowError(refused);
    expect(() => authorizeKeyRoute(['*'], route({ api: 'content' }))).toThrowError(refused);
    expect(() => authorizeKeyRoute(['projects:write'], route({}))).toThrowError(
      expect.objectContaining({
        code: 'missing_scope',
        message: 'This API key lacks the scope secrets:write',
      }),
    );
    expect(() => authorizeKeyRoute([], route({ rule: 'any' }))).not.toThrow();
  });

  it('refuse every key on a route declared without the helpers, and serve people', async () => {
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
      // And the walk above would name it as undeclared.
      expect(app.routes.some((r) => r.url === '/api/orgs/:orgId/unlisted' && !r.declared)).toBe(
        true,
      );
    } finally {
      await app.close();
    }
  });
});

describe('the OpenAPI description', () => {
  it('lists every route of the platform core and states what a key needs', async () => {
    const document = await servedDescription(t.api);
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
      'get /api/orgs/{orgId}/projects/{projectId}/workers',
      'post /api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/exec',
      'delete /api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/terminals/{name}',
      'get /api/orgs/{orgId}/nodes/{nodeId}/inventory',
      'post /api/orgs/{orgId}/projects/{projectId}/build',
      'get /api/workers/{workerId}/terminal',
      'get /api/services/{serviceId}/terminal',
      'get /api/services/{serviceId}/shell',
      'get /api/job-runs/{runId}/logs',
    ];
    for (const entry of expected) {
      const [method = '', path = ''] = entry.split(' ');
      const operation = document.paths[path]?.[method as HttpMethod];
      expect(operation, entry).toBeDefined();
      expect(operation?.operationId, entry).toEqual(expect.any(String));
      expect(operation?.description, entry).toMatch(/\*\*API keys:\*\* /);
    }
    const patch = document.paths['/api/orgs/{orgId}/projects/{projectId}']?.patch;
    expect(patch?.description).toContain('`projects:write`');
    const exec = document.paths['/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/exec'];
    expect(exec?.post?.description).toContain('need the scope `workers:exec`');
    expect(Object.keys(exec?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '202', '403', '409', '503']),
    );
    expect(document.paths['/api/orgs/{orgId}/api-keys']?.post?.description).toContain(
      'session_required',
    );
  });
});
