import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppModule } from '../../src/module.js';
import { createTestApp, type TestApp } from './app.js';
import { createUser, type TestUser } from './factories.js';
import { createClient } from './http.js';

/** A fixed secrets key for tests (base64 of 32 bytes). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** Every response the platform test apps of this test file answered: status line, headers, body. */
const responses: string[] = [];
/** Every secret value this test file wrote. */
const writtenSecrets = new Set<string>();

/**
 * The real app with a secrets key, whose clients record every response, so
 * that `expectNoSecretLeaks` can scan them all for the secret values written.
 */
export async function createPlatformTestApp(
  env: Record<string, string> = {},
  extraModules: readonly AppModule[] = [],
): Promise<TestApp> {
  const t = await createTestApp({ SECRETS_KEY: TEST_SECRETS_KEY, ...env }, extraModules);
  const recorder = {
    inject: async (options: InjectOptions) => {
      const response = await t.app.inject(options);
      responses.push(`${response.statusCode} ${JSON.stringify(response.headers)} ${response.body}`);
      return response;
    },
  } as unknown as FastifyInstance;
  return { ...t, http: createClient(recorder, ''), api: createClient(recorder, '/api') };
}

/** A distinctive secret value, remembered for the leak scan. */
export function secretValue(label = 'value'): string {
  const value = `s3cret-${label}-${randomBytes(9).toString('hex')}`;
  writtenSecrets.add(value);
  return value;
}

/**
 * Defines, at the end of a test file, the test that scans every response of
 * the file for every secret value it wrote.
 */
export function expectNoSecretLeaks(): void {
  describe('secret values', () => {
    it('never appear in any response of this file', () => {
      expect(writtenSecrets.size).toBeGreaterThan(0);
      expect(responses.length).toBeGreaterThan(0);
      const leaks = responses.filter((response) =>
        [...writtenSecrets].some((value) => response.includes(value)),
      );
      expect(leaks).toEqual([]);
    });
  });
}

export interface TestOrg {
  id: string;
  name: string;
}

export async function createOrg(t: TestApp, owner: TestUser, name = 'Acme'): Promise<TestOrg> {
  const response = await t.api.post('/orgs', { name }, { token: owner.token });
  expect(response.status).toBe(201);
  return response.body;
}

/** A new account added to the organization with this role. */
export async function addMember(
  t: TestApp,
  org: TestOrg,
  by: TestUser,
  role: 'owner' | 'admin' | 'member',
): Promise<TestUser> {
  const member = await createUser(t);
  const response = await t.api.post(
    `/orgs/${org.id}/members`,
    { email: member.user.email, role },
    { token: by.token },
  );
  expect(response.status).toBe(201);
  return member;
}

export async function createKey(
  t: TestApp,
  org: TestOrg,
  by: TestUser,
  scopes: string[],
  ownerType: 'user' | 'org' = 'user',
): Promise<{ id: string; token: string }> {
  const response = await t.api.post(
    `/orgs/${org.id}/api-keys`,
    { name: `key ${scopes.join(' ')}`, ownerType, scopes },
    { token: by.token },
  );
  expect(response.status).toBe(201);
  return { id: response.body.id, token: response.body.token };
}
