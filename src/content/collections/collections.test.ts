import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  addMember,
  allEvents,
  createCollection,
  createField,
  createItem,
  createWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

describe('collections', () => {
  it('creates a list with its columns and answers 409 for a taken prefix', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 'owner', type: 'person', name: 'Owner' });
    const token = workspace.owner.token;
    const created = await t.api.post(
      `/workspaces/${workspace.id}/collections`,
      { name: 'Engineering', keyPrefix: 'ENG', fieldIds: [field.id], description: 'Build it' },
      { token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Engineering',
      keyPrefix: 'ENG',
      fieldIds: [field.id],
      groupId: null,
      position: 0,
    });
    const taken = await t.http.post(
      `/workspaces/${workspace.id}/collections`,
      { name: 'Other', keyPrefix: 'ENG' },
      { token },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('key_prefix_taken');
    const unknown = await t.http.post(
      `/workspaces/${workspace.id}/collections`,
      { name: 'X', keyPrefix: 'X', fieldIds: ['0190d6e2-3c4b-7def-8123-456789abcdef'] },
      { token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_field');
    for (const keyPrefix of ['eng', '1AB', 'TOOLONGPREFIX', '']) {
      expect(
        (
          await t.http.post(
            `/workspaces/${workspace.id}/collections`,
            { name: 'X', keyPrefix },
            { token },
          )
        ).status,
      ).toBe(400);
    }
  });

  it('shows the detail with fields in column order, statuses and views', async () => {
    const workspace = await createWorkspace(t);
    const a = await createField(t, workspace, { key: 'a', type: 'text', name: 'A' });
    const b = await createField(t, workspace, { key: 'b', type: 'text', name: 'B' });
    const list = await createCollection(t, workspace, { fieldIds: [b.id, a.id] });
    await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      { name: 'All', definition: {} },
      { token: workspace.owner.token },
    );
    const detail = await t.http.get(`/workspaces/${workspace.id}/collections/${list.id}`, {
      token: workspace.owner.token,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.fields.map((field: { key: string }) => field.key)).toEqual(['b', 'a']);
    expect(detail.body.statuses).toHaveLength(3);
    expect(detail.body.views.map((view: { name: string }) => view.name)).toEqual(['All']);
  });

  it('replaces columns as a whole, renames, logs only what changed; 409 for a taken prefix', async () => {
    const workspace = await createWorkspace(t);
    const a = await createField(t, workspace, { key: 'a', type: 'text', name: 'A' });
    const list = await createCollection(t, workspace, { fieldIds: [a.id] });
    const other = await createCollection(t, workspace);
    const token = workspace.owner.token;
    const cleared = await t.http.patch(
      `/workspaces/${workspace.id}/collections/${list.id}`,
      { fieldIds: [], name: 'Renamed' },
      { token },
    );
    expect(cleared.body).toMatchObject({ fieldIds: [], name: 'Renamed' });
    const events = await allEvents(t, workspace, { type: 'collection.updated' });
    expect(events.at(-1)?.changes).toEqual({
      name: { before: expect.any(String), after: 'Renamed' },
      fieldIds: { before: [a.id], after: [] },
    });
    const taken = await t.http.patch(
      `/workspaces/${workspace.id}/collections/${list.id}`,
      { keyPrefix: other.keyPrefix },
      { token },
    );
    expect(taken.status).toBe(409);
    const member = await addMember(t, workspace, 'member');
    expect(
      (
        await t.http.patch(
          `/workspaces/${workspace.id}/collections/${list.id}`,
          { name: 'No' },
          { token: member.token },
        )
      ).status,
    ).toBe(403);
  });

  it('deletes a list with its home items and their sub-items; attached items survive', async () => {
    const workspace = await createWorkspace(t);
    const doomed = await createCollection(t, workspace);
    const home = await createCollection(t, workspace);
    const parent = await createItem(t, workspace, doomed.id, { title: 'Parent' });
    const child = await createItem(t, workspace, home.id, {
      title: 'Child elsewhere',
      parentId: parent.id,
    });
    const visitor = await createItem(t, workspace, home.id, { title: 'Visitor' });
    const token = workspace.owner.token;
    await t.http.post(
      `/workspaces/${workspace.id}/items/${visitor.id}/collections`,
      { collectionId: doomed.id },
      { token },
    );
    await t.http.post(
      `/workspaces/${workspace.id}/collections/${doomed.id}/views`,
      { name: 'V', definition: {} },
      { token },
    );

    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/collections/${doomed.id}`, { token }))
        .status,
    ).toBe(204);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/items/${parent.id}`, { token })).status,
    ).toBe(404);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/items/${child.id}`, { token })).status,
    ).toBe(404);
    const survivor = await t.http.get(`/workspaces/${workspace.id}/items/${visitor.id}`, { token });
    expect(survivor.status).toBe(200);
    expect(survivor.body.collectionIds).toEqual([]);
    const events = (await allEvents(t, workspace)).slice(-5);
    expect(events.map((event) => event.type).sort()).toEqual(
      [
        'collection.deleted',
        'item.deleted',
        'item.deleted',
        'item.detached',
        'view.deleted',
      ].sort(),
    );
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
  });
});

describe('reordering and groups', () => {
  it('rewrites the cited lists 0 to n-1, leaves others, logs only the moved ones', async () => {
    const workspace = await createWorkspace(t);
    const [a, b, c, d] = [
      await createCollection(t, workspace),
      await createCollection(t, workspace),
      await createCollection(t, workspace),
      await createCollection(t, workspace),
    ];
    const token = workspace.owner.token;
    const group = await t.http.post(
      `/workspaces/${workspace.id}/collection-groups`,
      { name: 'Team' },
      { token },
    );
    expect(group.status).toBe(201);
    const before = (await allEvents(t, workspace)).length;
    const response = await t.http.put(
      `/workspaces/${workspace.id}/collections/order`,
      {
        collections: [
          { id: a?.id, groupId: null },
          { id: c?.id, groupId: group.body.id },
          { id: b?.id, groupId: null },
        ],
      },
      { token },
    );
    expect(response.status).toBe(200);
    const byId = new Map(response.body.map((list: { id: string }) => [list.id, list]));
    expect(byId.get(a?.id ?? '')).toMatchObject({ position: 0, groupId: null });
    expect(byId.get(c?.id ?? '')).toMatchObject({ position: 1, groupId: group.body.id });
    expect(byId.get(b?.id ?? '')).toMatchObject({ position: 2, groupId: null });
    expect(byId.get(d?.id ?? '')).toMatchObject({ position: 3, groupId: null });
    const events = (await allEvents(t, workspace)).slice(before);
    expect(events.map((event) => event.resource.id).sort()).toEqual([b?.id, c?.id].sort());
    expect(events.find((event) => event.resource.id === c?.id)?.changes).toEqual({
      groupId: { before: null, after: group.body.id },
      position: { before: 2, after: 1 },
    });
  });

  it('answers 409 for a missing list or group and changes nothing', async () => {
    const workspace = await createWorkspace(t);
    const a = await createCollection(t, workspace);
    const other = await createWorkspace(t);
    const foreign = await createCollection(t, other);
    const token = workspace.owner.token;
    const missingList = await t.http.put(
      `/workspaces/${workspace.id}/collections/order`,
      {
        collections: [
          { id: a.id, groupId: null },
          { id: foreign.id, groupId: null },
        ],
      },
      { token },
    );
    expect(missingList.status).toBe(409);
    expect(missingList.body.error.code).toBe('collection_not_found');
    const missingGroup = await t.http.put(
      `/workspaces/${workspace.id}/collections/order`,
      { collections: [{ id: a.id, groupId: '0190d6e2-3c4b-7def-8123-456789abcdef' }] },
      { token },
    );
    expect(missingGroup.status).toBe(409);
    expect(missingGroup.body.error.code).toBe('group_not_found');
  });

  it('keeps concurrent reorders consistent', async () => {
    const workspace = await createWorkspace(t);
    const lists = [];
    for (let index = 0; index < 5; index++) lists.push(await createCollection(t, workspace));
    const orders = [lists.map((list) => list.id), [...lists.map((list) => list.id)].reverse()];
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        t.http.put(
          `/workspaces/${workspace.id}/collections/order`,
          { collections: (orders[index % 2] ?? []).map((id) => ({ id, groupId: null })) },
          { token: workspace.owner.token },
        ),
      ),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const final = (
      await t.http.get(`/workspaces/${workspace.id}/collections`, { token: workspace.owner.token })
    ).body;
    const ids = final.map((list: { id: string }) => list.id);
    expect([orders[0], orders[1]]).toContainEqual(ids);
    expect(final.map((list: { position: number }) => list.position)).toEqual([0, 1, 2, 3, 4]);
  });

  it('renames, reorders and deletes groups; lists of a deleted group stay ungrouped', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const one = (
      await t.http.post(`/workspaces/${workspace.id}/collection-groups`, { name: 'One' }, { token })
    ).body;
    const two = (
      await t.http.post(`/workspaces/${workspace.id}/collection-groups`, { name: 'Two' }, { token })
    ).body;
    const list = await createCollection(t, workspace, { groupId: one.id });
    expect(list).toMatchObject({ groupId: one.id });
    const renamed = await t.http.patch(
      `/workspaces/${workspace.id}/collection-groups/${one.id}`,
      { name: 'First' },
      { token },
    );
    expect(renamed.body.name).toBe('First');
    const order = await t.http.put(
      `/workspaces/${workspace.id}/collection-groups/order`,
      { groupIds: [two.id, one.id] },
      { token },
    );
    expect(order.body.map((group: { id: string }) => group.id)).toEqual([two.id, one.id]);
    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/collection-groups/${one.id}`, { token }))
        .status,
    ).toBe(204);
    const detail = await t.http.get(`/workspaces/${workspace.id}/collections/${list.id}`, {
      token,
    });
    expect(detail.body.groupId).toBeNull();
    const types = (await allEvents(t, workspace))
      .map((event) => event.type)
      .filter((type) => type.startsWith('collection_group'));
    expect(types).toEqual([
      'collection_group.created',
      'collection_group.created',
      'collection_group.updated',
      'collection_group.updated',
      'collection_group.updated',
      'collection_group.deleted',
    ]);
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/collections`,
          { name: 'X', keyPrefix: 'XG', groupId: one.id },
          { token },
        )
      ).body.error.code,
    ).toBe('unknown_group');
  });
});
