import { randomBytes } from 'node:crypto';
import type { components } from '../../packages/client/src/generated/api.js';
import { hashPassword } from '../../src/accounts/password.js';
import { insertUser } from '../../src/accounts/repository.js';
import type { AuthUser } from '../../src/accounts/schemas.js';
import { openSession } from '../../src/accounts/service.js';
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

export interface TestWorkspace {
  id: string;
  slug: string;
  owner: TestUser;
}

/** A workspace created over HTTP by `owner` (a new user when not given). */
export async function createWorkspace(
  t: TestApp,
  owner?: TestUser,
  name = 'Test workspace',
): Promise<TestWorkspace> {
  const user = owner ?? (await createUser(t, { name: 'Owner' }));
  const slug = `ws-${randomBytes(5).toString('hex')}`;
  const response = await t.http.post('/workspaces', { name, slug }, { token: user.token });
  if (response.status !== 201)
    throw new Error(`createWorkspace: ${response.status} ${response.text}`);
  return { id: response.body.id, slug, owner: user };
}

/** A new user who is a member of the workspace with this role. */
export async function addMember(
  t: TestApp,
  workspace: TestWorkspace,
  role: string,
  name = `A ${role}`,
): Promise<TestUser> {
  const user = await createUser(t, { name });
  const response = await t.http.post(
    `/workspaces/${workspace.id}/members`,
    { email: user.user.email, role },
    { token: workspace.owner.token },
  );
  if (response.status !== 201) throw new Error(`addMember: ${response.status} ${response.text}`);
  return user;
}

/** Every event of the workspace, oldest first, read over HTTP as the owner. */
export async function allEvents(
  t: TestApp,
  workspace: TestWorkspace,
  query: Record<string, string | string[]> = {},
) {
  const response = await t.http.get(`/workspaces/${workspace.id}/events`, {
    token: workspace.owner.token,
    query: { limit: '1000', ...query },
  });
  if (response.status !== 200) throw new Error(`allEvents: ${response.status} ${response.text}`);
  return response.body.events as Array<{
    id: string;
    type: string;
    resource: { kind: string; id: string };
    actor: { kind: string; label: string; apiKeyId?: string; userId?: string };
    changes: Record<string, { before: unknown; after: unknown }>;
    batchId: string | null;
    cause: string;
  }>;
}

let prefixCounter = 0;

/** A list of the workspace, created by its owner. */
export async function createCollection(
  t: TestApp,
  workspace: TestWorkspace,
  body: Record<string, unknown> = {},
): Promise<components['schemas']['Collection']> {
  prefixCounter += 1;
  const response = await t.http.post(
    `/workspaces/${workspace.id}/collections`,
    { name: `List ${prefixCounter}`, keyPrefix: `L${prefixCounter}`, ...body },
    { token: workspace.owner.token },
  );
  if (response.status !== 201)
    throw new Error(`createCollection: ${response.status} ${response.text}`);
  return response.body;
}

/** A registry field of the workspace, created by its owner. */
export async function createField(
  t: TestApp,
  workspace: TestWorkspace,
  body: Record<string, unknown>,
): Promise<components['schemas']['Field']> {
  const response = await t.http.post(`/workspaces/${workspace.id}/fields`, body, {
    token: workspace.owner.token,
  });
  if (response.status !== 201) throw new Error(`createField: ${response.status} ${response.text}`);
  return response.body;
}

/** A card in a list, created by the workspace owner (or `token`). */
export async function createItem(
  t: TestApp,
  workspace: TestWorkspace,
  collectionId: string,
  body: Record<string, unknown> = {},
  token = workspace.owner.token,
): Promise<components['schemas']['ItemDetail']> {
  const response = await t.http.post(
    `/workspaces/${workspace.id}/collections/${collectionId}/items`,
    { title: 'A card', ...body },
    { token },
  );
  if (response.status !== 201) throw new Error(`createItem: ${response.status} ${response.text}`);
  return response.body;
}

/**
 * Many cards at once, straight into the table (fixtures for bulk and paging
 * tests; no events). Numbers come from the workspace's sequence.
 */
export async function insertItems(
  t: TestApp,
  workspace: TestWorkspace,
  collectionId: string,
  count: number,
  properties: (index: number) => Record<string, unknown> = () => ({}),
): Promise<string[]> {
  const { sql } = await import('kysely');
  const { keysBetween } = await import('../../src/content/items/order.js');
  const status = await t.db
    .selectFrom('statuses')
    .select('id')
    .where('workspace_id', '=', workspace.id)
    .orderBy('position')
    .limit(1)
    .executeTakeFirstOrThrow();
  const last = await t.db
    .selectFrom('items')
    .select('sort_key')
    .where('collection_id', '=', collectionId)
    .orderBy(sql`sort_key`, 'desc')
    .limit(1)
    .executeTakeFirst();
  const { takeItemNumbers } = await import('../../src/content/workspaces/numbers.js');
  const numbers = await takeItemNumbers(t.db, workspace.id, count);
  const keys = keysBetween(last?.sort_key ?? null, null, count);
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows = keys.slice(start, start + 1000).map((sortKey, offset) => {
      const index = start + offset;
      const id = newId();
      ids.push(id);
      return {
        id,
        workspace_id: workspace.id,
        collection_id: collectionId,
        number: numbers[index] ?? 0,
        title: `Card ${index}`,
        status_id: status.id,
        properties: sql<
          Record<string, unknown>
        >`cast(${JSON.stringify(properties(index))} as jsonb)`,
        sort_key: sortKey,
        created_by: workspace.owner.user.id,
      };
    });
    await t.db.insertInto('items').values(rows).execute();
  }
  return ids;
}

/** The config of a select field with these options, all of one colour. */
export function selectOptions(...labels: string[]) {
  return { options: labels.map((label) => ({ label, color: '#000000' })) };
}
