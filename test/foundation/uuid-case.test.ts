import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import {
  createCollection,
  createUser,
  createWorkspace,
  type TestUser,
  type TestWorkspace,
} from '../helpers/factories.js';
import { createKey, createOrg, createPlatformTestApp, type TestOrg } from '../helpers/platform.js';

/**
 * UUIDs are case-insensitive (RFC 9562) and the spec's pattern accepts
 * uppercase hex; the database answers lowercase ones. The validator hands
 * every route lowercase UUIDs, in paths, queries and bodies, so an id sent in
 * uppercase finds the same record wherever it is compared.
 */
describe('uppercase UUIDs', () => {
  const t = useApp(() => createPlatformTestApp());
  let owner: TestUser;
  let workspace: TestWorkspace;
  let org: TestOrg;

  beforeAll(async () => {
    owner = await createUser(t);
    workspace = await createWorkspace(t, owner);
    org = await createOrg(t, owner);
  });

  async function item(collectionId: string, title: string): Promise<string> {
    const created = await t.http.post(
      `/workspaces/${workspace.id}/collections/${collectionId}/items`,
      { title },
      { token: owner.token },
    );
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  it('content items: PATCH, move, duplicate and attach with uppercase path and body ids', async () => {
    const home = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    const first = await item(home.id, 'First');
    const second = await item(home.id, 'Second');
    const as = { token: owner.token };
    const ws = workspace.id.toUpperCase();

    const patched = await t.http.patch(
      `/workspaces/${ws}/items/${second.toUpperCase()}`,
      { title: 'Second, renamed', parentId: first.toUpperCase() },
      as,
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: second, parentId: first });

    const moved = await t.api.post(
      `/workspaces/${ws}/items/${second.toUpperCase()}/move`,
      { collectionId: other.id.toUpperCase(), parentId: null },
      as,
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: second, collectionId: other.id });

    const reordered = await t.http.post(
      `/workspaces/${ws}/items/${first.toUpperCase()}/move`,
      { collectionId: other.id.toUpperCase(), afterItemId: second.toUpperCase() },
      as,
    );
    expect(reordered.status, reordered.text).toBe(200);

    const duplicated = await t.http.post(
      `/workspaces/${ws}/items/${first.toUpperCase()}/duplicate`,
      undefined,
      as,
    );
    expect(duplicated.status, duplicated.text).toBe(201);

    const attached = await t.http.post(
      `/workspaces/${ws}/items/${first.toUpperCase()}/collections`,
      { collectionId: home.id.toUpperCase() },
      as,
    );
    expect(attached.status, attached.text).toBe(200);
  });

  it('a platform route: a project read, renamed and deleted by its uppercase id', async () => {
    const as = { token: owner.token };
    const created = await t.api.post(`/orgs/${org.id}/projects`, { name: 'upper' }, as);
    expect(created.status).toBe(201);
    const path = `/orgs/${org.id.toUpperCase()}/projects/${created.body.id.toUpperCase()}`;
    const read = await t.api.get(path, as);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id });
    const renamed = await t.api.patch(path, { name: 'renamed' }, as);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, orgId: org.id, name: 'renamed' });
    const deleted = await t.api.delete(path, as);
    expect(deleted.status, deleted.text).toBe(204);
  });

  it("a platform route called with an API key: its organization's id in uppercase is its own", async () => {
    const key = await createKey(t, org, owner, ['projects:read', 'projects:write'], 'org');
    const upper = org.id.toUpperCase();
    const created = await t.api.post(`/orgs/${upper}/projects`, { name: 'by key' }, key);
    expect(created.status, created.text).toBe(201);
    expect(created.body.orgId).toBe(org.id);
    const listed = await t.api.get(`/orgs/${upper}/projects`, key);
    expect(listed.status, listed.text).toBe(200);
  });
});
