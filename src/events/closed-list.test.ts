import { describe, expect, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import {
  allEvents,
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../test/helpers/factories.js';
import { EVENT_TYPES, type EventType } from './types.js';

/**
 * Walks the closed list of event types (spec: Events, Log 4): each type is
 * provoked by the change that should write it, and the change writes it,
 * about the resource it changed. A type added to the list without a
 * provocation here fails the walk.
 */
const t = useApp();

interface Provoked {
  kind: string;
  id: string;
}

type Provocation = (workspace: TestWorkspace) => Promise<Provoked>;

function ok<T extends { status: number; text: string }>(response: T, status: number): T {
  expect(response.status, response.text).toBe(status);
  return response;
}

async function group(workspace: TestWorkspace, name: string): Promise<string> {
  const response = await t.http.post(
    `/workspaces/${workspace.id}/collection-groups`,
    { name },
    { token: workspace.owner.token },
  );
  ok(response, 201);
  return response.body.id;
}

async function view(workspace: TestWorkspace) {
  const list = await createCollection(t, workspace);
  const response = await t.http.post(
    `/workspaces/${workspace.id}/collections/${list.id}/views`,
    { name: 'All', definition: { sort: [{ attribute: 'title' }] } },
    { token: workspace.owner.token },
  );
  ok(response, 201);
  return {
    url: `/workspaces/${workspace.id}/collections/${list.id}/views/${response.body.id}`,
    id: response.body.id,
  };
}

async function status(workspace: TestWorkspace): Promise<string> {
  const response = await t.http.post(
    `/workspaces/${workspace.id}/statuses`,
    { name: 'Spare', color: '#000000', category: 'backlog' },
    { token: workspace.owner.token },
  );
  ok(response, 201);
  return response.body.id;
}

const provocations: Record<EventType, Provocation> = {
  'item.created': async (workspace) => {
    const list = await createCollection(t, workspace);
    return { kind: 'item', id: (await createItem(t, workspace, list.id)).id };
  },
  'item.updated': async (workspace) => {
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}` as const;
    ok(await t.http.patch(url, { title: 'Renamed' }, { token: workspace.owner.token }), 200);
    return { kind: 'item', id: item.id };
  },
  'item.moved': async (workspace) => {
    const list = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}/move` as const;
    ok(await t.http.post(url, { collectionId: other.id }, { token: workspace.owner.token }), 200);
    return { kind: 'item', id: item.id };
  },
  'item.deleted': async (workspace) => {
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}` as const;
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'item', id: item.id };
  },
  'item.attached': async (workspace) => {
    const list = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}/collections` as const;
    ok(await t.http.post(url, { collectionId: other.id }, { token: workspace.owner.token }), 200);
    return { kind: 'item', id: item.id };
  },
  'item.detached': async (workspace) => {
    const list = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const token = workspace.owner.token;
    const url = `/workspaces/${workspace.id}/items/${item.id}/collections` as const;
    ok(await t.http.post(url, { collectionId: other.id }, { token }), 200);
    ok(await t.http.delete(`${url}/${other.id}`, { token }), 204);
    return { kind: 'item', id: item.id };
  },
  'collection.created': async (workspace) => ({
    kind: 'collection',
    id: (await createCollection(t, workspace)).id,
  }),
  'collection.updated': async (workspace) => {
    const list = await createCollection(t, workspace);
    const url = `/workspaces/${workspace.id}/collections/${list.id}` as const;
    ok(await t.http.patch(url, { name: 'Renamed' }, { token: workspace.owner.token }), 200);
    return { kind: 'collection', id: list.id };
  },
  'collection.deleted': async (workspace) => {
    const list = await createCollection(t, workspace);
    const url = `/workspaces/${workspace.id}/collections/${list.id}` as const;
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'collection', id: list.id };
  },
  'collection_group.created': async (workspace) => ({
    kind: 'collection_group',
    id: await group(workspace, 'Team'),
  }),
  'collection_group.updated': async (workspace) => {
    const id = await group(workspace, 'Team');
    const url = `/workspaces/${workspace.id}/collection-groups/${id}` as const;
    ok(await t.http.patch(url, { name: 'Crew' }, { token: workspace.owner.token }), 200);
    return { kind: 'collection_group', id };
  },
  'collection_group.deleted': async (workspace) => {
    const id = await group(workspace, 'Team');
    await createCollection(t, workspace, { groupId: id });
    const url = `/workspaces/${workspace.id}/collection-groups/${id}` as const;
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'collection_group', id };
  },
  'field.created': async (workspace) => ({
    kind: 'field',
    id: (await createField(t, workspace, { key: 'points', type: 'number', name: 'Points' })).id,
  }),
  'field.updated': async (workspace) => {
    const field = await createField(t, workspace, { key: 'size', type: 'number', name: 'Size' });
    const url = `/workspaces/${workspace.id}/fields/${field.id}` as const;
    ok(await t.http.patch(url, { name: 'Bigness' }, { token: workspace.owner.token }), 200);
    return { kind: 'field', id: field.id };
  },
  'field.deleted': async (workspace) => {
    const field = await createField(t, workspace, { key: 'gone', type: 'text', name: 'Gone' });
    const url = `/workspaces/${workspace.id}/fields/${field.id}` as const;
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'field', id: field.id };
  },
  'status.created': async (workspace) => ({ kind: 'status', id: await status(workspace) }),
  'status.updated': async (workspace) => {
    const id = await status(workspace);
    const url = `/workspaces/${workspace.id}/statuses/${id}` as const;
    ok(await t.http.patch(url, { name: 'Spared' }, { token: workspace.owner.token }), 200);
    return { kind: 'status', id };
  },
  'status.deleted': async (workspace) => {
    const id = await status(workspace);
    const url = `/workspaces/${workspace.id}/statuses/${id}` as const;
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'status', id };
  },
  'view.created': async (workspace) => ({ kind: 'view', id: (await view(workspace)).id }),
  'view.updated': async (workspace) => {
    const { url, id } = await view(workspace);
    ok(await t.http.patch(url, { name: 'Some' }, { token: workspace.owner.token }), 200);
    return { kind: 'view', id };
  },
  'view.deleted': async (workspace) => {
    const { url, id } = await view(workspace);
    ok(await t.http.delete(url, { token: workspace.owner.token }), 204);
    return { kind: 'view', id };
  },
  'workspace.updated': async (workspace) => {
    const url = `/workspaces/${workspace.id}` as const;
    ok(await t.http.patch(url, { name: 'Renamed' }, { token: workspace.owner.token }), 200);
    return { kind: 'workspace', id: workspace.id };
  },
};

describe('the closed list of event types', () => {
  it.each([...EVENT_TYPES])('%s is written by the change that should write it', async (type) => {
    const workspace = await createWorkspace(t);
    const before = new Set((await allEvents(t, workspace)).map((event) => event.id));
    const resource = await provocations[type](workspace);
    const written = (await allEvents(t, workspace)).filter((event) => !before.has(event.id));
    const matching = written.filter(
      (event) => event.type === type && event.resource.id === resource.id,
    );
    expect(matching, JSON.stringify(written.map((event) => event.type))).toHaveLength(1);
    expect(matching[0]?.resource.kind).toBe(resource.kind);
  });
});
