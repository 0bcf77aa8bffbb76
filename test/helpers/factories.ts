import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../src/content/accounts/password.js';
import { insertUser } from '../../src/content/accounts/repository.js';
import type { AuthUser } from '../../src/content/accounts/schemas.js';
import { openSession } from '../../src/content/accounts/service.js';
import { newId } from '../../src/lib/ids.js';
import type { TestApp } from './app.js';

export const TEST_PASSWORD = 'correct horse battery staple';

let testPasswordHash: Promise<string> | undefined;

/** Hashing costs ~0.4 s, so every factory user shares one hash of TEST_PASSWORD. */
function sharedPasswordHash(): Promise<string> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  return testPasswordHash;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

export interface TestUser {
  user: AuthUser;
  token: string;
}

/** An account with a session, created directly through the accounts service. */
export async function createUser(
  t: TestApp,
  fields: { email?: string; name?: string } = {},
): Promise<TestUser> {
  const row = await insertUser(t.db, {
    id: newId(),
    email: fields.email ?? uniqueEmail(),
    name: fields.name ?? 'Test User',
    password_hash: await sharedPasswordHash(),
  });
  return openSession(t.db, t.ctx.config, row);
}
