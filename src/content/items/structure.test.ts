import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  allEvents,
  createCollection,
  createField,
  createItem,
  createWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

describe('deleting items', () => {
  it('deletes the subtree and logs each card under one batch', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const root = await createItem(t, workspace, list.id, { title: 'root' });
    const child = await createItem(t, workspace, list.id, { title: 'child', parentId: root.id });
    const grandchild = await createItem(t, workspace, list.id, {
      title: 'grandchild',
      parentId: child.id,
    });
    const bystander = await createItem(t, workspace, list.id, { title: 'bystander' });
    const token = workspace.owner.token;
    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/items/${root.id}`, { token })).status,
    ).toBe(204);
    for (const item of [root, child, grandchild]) {
      expect(
        (await t.http.get(`/workspaces/${workspace.id}/items/${item.id}`, { token })).status,
      ).toBe(404);
    }
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/items/${bystander.id}`, { token })).status,
    ).toBe(200);
    const events = await allEvents(t, workspace, { type: 'item.deleted' });
    expect(events.map((event) => event.resource.id).sort()).toEqual(
      [root.id, child.id, grandchild.id].sort(),
    );
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
    expect(events[0]?.batchId).not.toBeNull();
    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/items/${root.id}`, { token })).status,
    ).toBe(404);
  });
});

describe('moving items', () => {
  it('moves to another home list: same number, new key, last there, one item.moved', async () => {
    const workspace = await createWorkspace(t);
    const from = await createCollection(t, workspace, { keyPrefix: 'FROM' });
    const to = await createCollection(t, workspace, { keyPrefix: 'TO' });
    const existing = await createItem(t, workspace, to.id);
    const item = await createItem(t, workspace, from.id);
    const token = workspace.owner.token;
    await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/collections`,
      { collectionId: to.id },
      { token },
    );
    const moved = await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/move`,
      { collectionId: to.id },
      { token },
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      collectionId: to.id,
      key: `TO-${item.number}`,
      number: item.number,
      collectionIds: [],
    });
    expect(moved.body.sortKey > existing.sortKey).toBe(true);
    const events = await allEvents(t, workspace, { type: 'item.moved' });
    expect(events).toHaveLength(1);
    expect(events[0]?.changes.collectionId).toEqual({ before: from.id, after: to.id });
    const first = await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/move`,
      { afterItemId: null },
      { token },
    );
    expect(first.body.sortKey < existing.sortKey).toBe(true);
    const unknown = await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/move`,
      { collectionId: '0190d6e2-3c4b-7def-8123-456789abcdef' },
      { token },
    );
    expect(unknown.body.error.code).toBe('unknown_collection');
    const self = await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/move`,
      { parentId: item.id },
      { token },
    );
    expect(self.body.error.code).toBe('invalid_parent');
  });
});

describe('secondary lists', () => {
  it('attaches idempotently and detaches; the home list never changes', async () => {
    const workspace = await createWorkspace(t);
    const home = await createCollection(t, workspace, { keyPrefix: 'HOME' });
    const extra = await createCollection(t, workspace);
    const item = await createItem(t, workspace, home.id);
    const token = workspace.owner.token;
    const url = `/workspaces/${workspace.id}/items/${item.id}/collections`;
    const attached = await t.http.post(url, { collectionId: extra.id }, { token });
    expect(attached.body).toMatchObject({
      collectionId: home.id,
      key: item.key,
      collectionIds: [extra.id],
    });
    expect((await t.http.post(url, { collectionId: extra.id }, { token })).status).toBe(200);
    expect(await allEvents(t, workspace, { type: 'item.attached' })).toHaveLength(1);
    expect((await t.http.post(url, { collectionId: home.id }, { token })).body.error.code).toBe(
      'already_home',
    );
    expect((await t.http.delete(`${url}/${home.id}`, { token })).body.error.code).toBe(
      'cannot_detach_home',
    );
    expect((await t.http.delete(`${url}/${extra.id}`, { token })).status).toBe(204);
    expect((await t.http.delete(`${url}/${extra.id}`, { token })).status).toBe(404);
    const after = await t.http.get(`/workspaces/${workspace.id}/items/${item.id}`, { token });
    expect(after.body).toMatchObject({ collectionId: home.id, key: item.key, collectionIds: [] });
    const [detached] = await allEvents(t, workspace, { type: 'item.detached' });
    expect(detached?.changes).toEqual({ collectionIds: { before: [extra.id], after: [] } });
  });
});

describe('duplicating items', () => {
  it('copies the subtree after the original, skipping archived sub-items', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, {
      key: 'points',
      type: 'number',
      name: 'Points',
    });
    const list = await createCollection(t, workspace, { keyPrefix: 'DUP' });
    const extra = await createCollection(t, workspace);
    const token = workspace.owner.token;
    const root = await createItem(t, workspace, list.id, {
      title: 'Root',
      icon: '🚀',
      body: '**bold** text',
      properties: { points: 5 },
    });
    const next = await createItem(t, workspace, list.id, { title: 'Next' });
    await t.http.post(
      `/workspaces/${workspace.id}/items/${root.id}/collections`,
      { collectionId: extra.id },
      { token },
    );
    const child = await createItem(t, workspace, list.id, { title: 'Child', parentId: root.id });
    const archived = await createItem(t, workspace, list.id, {
      title: 'Archived',
      parentId: root.id,
    });
    await createItem(t, workspace, list.id, { title: 'Under archived', parentId: archived.id });
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${archived.id}`,
      { archived: true },
      { token },
    );
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${root.id}`,
      { archived: true },
      { token },
    );

    const copy = await t.http.post(
      `/workspaces/${workspace.id}/items/${root.id}/duplicate`,
      undefined,
      {
        token,
        headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
      },
    );
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      title: 'Root (copie)',
      icon: '🚀',
      body: '**bold** text',
      properties: { points: 5 },
      collectionIds: [extra.id],
      statusId: root.statusId,
      archived: false,
      archivedAt: null,
      parentId: null,
      externalId: null,
    });
    expect(copy.body.number).toBeGreaterThan(root.number);
    expect(copy.body.sortKey > root.sortKey && copy.body.sortKey < next.sortKey).toBe(true);
    const created = await allEvents(t, workspace, { type: 'item.created' });
    const copies = created.slice(-2);
    expect(copies.map((event) => event.changes.title?.after).sort()).toEqual([
      'Child',
      'Root (copie)',
    ]);
    const rootEvent = copies.find((event) => event.resource.id === copy.body.id);
    expect(rootEvent?.changes.duplicatedFrom).toEqual({ before: null, after: root.id });
    expect(new Set(copies.map((event) => event.batchId)).size).toBe(1);
    const childCopy = copies.find((event) => event.resource.id !== copy.body.id);
    const childDetail = await t.http.get(
      `/workspaces/${workspace.id}/items/${childCopy?.resource.id}`,
      { token },
    );
    expect(childDetail.body).toMatchObject({ title: 'Child', parentId: copy.body.id });
    expect(childDetail.body.number).not.toBe(child.number);
    expect(field.key).toBe('points');
  });

  it('uses English by default and refuses subtrees above 200 cards', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const token = workspace.owner.token;
    const root = await createItem(t, workspace, list.id, { title: 'Big' });
    const single = await t.http.post(
      `/workspaces/${workspace.id}/items/${root.id}/duplicate`,
      undefined,
      { token },
    );
    expect(single.body.title).toBe('Big (copy)');
    const children = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        t.http.post(
          `/workspaces/${workspace.id}/collections/${list.id}/items`,
          { title: `c${index}`, parentId: root.id },
          { token },
        ),
      ),
    );
    expect(children.every((response) => response.status === 201)).toBe(true);
    const refused = await t.http.post(
      `/workspaces/${workspace.id}/items/${root.id}/duplicate`,
      undefined,
      { token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'subtree_too_large',
      details: { max: 200, count: 201 },
    });
  });
});
