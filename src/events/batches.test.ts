import { describe, expect, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import {
  createCollection,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../test/helpers/factories.js';

const t = useApp();

async function events(workspace: TestWorkspace, since?: string) {
  const response = await t.http.get(`/workspaces/${workspace.id}/events`, {
    token: workspace.owner.token,
    query: since === undefined ? { limit: '200' } : { limit: '200', since },
  });
  expect(response.status).toBe(200);
  return response.body.events;
}

async function lastEventId(workspace: TestWorkspace): Promise<string> {
  const all = await events(workspace);
  const last = all.at(-1);
  if (last === undefined) throw new Error('no event yet');
  return last.id;
}

/** One non-null batch id shared by every event given, and by no event before them. */
function expectOneBatch(written: ReadonlyArray<{ batchId: string | null }>, count: number) {
  expect(written).toHaveLength(count);
  const batches = new Set(written.map((event) => event.batchId));
  expect(batches.size).toBe(1);
  expect([...batches][0]).toMatch(/^[0-9a-f-]{36}$/);
}

describe('batchId: non-null when an event is one of many from one action', () => {
  it('gives the three statuses of a new workspace one batch', async () => {
    const workspace = await createWorkspace(t);
    const created = await events(workspace);
    expect(created.map((event) => event.type)).toEqual(Array(3).fill('status.created'));
    expectOneBatch(created, 3);
  });

  it('gives a reorder of statuses one batch, and a single move none', async () => {
    const workspace = await createWorkspace(t);
    const statuses = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
    ).body.map((status) => status.id);
    const since = await lastEventId(workspace);
    const reversed = [...statuses].reverse();
    const reorder = await t.http.put(
      `/workspaces/${workspace.id}/statuses/order`,
      { statusIds: reversed },
      { token: workspace.owner.token },
    );
    expect(reorder.status).toBe(200);
    // Three statuses reversed: the first and last move, the middle stays.
    expectOneBatch(await events(workspace, since), 2);

    const afterReorder = await lastEventId(workspace);
    const [a, b, c] = reversed;
    const swap = await t.http.put(
      `/workspaces/${workspace.id}/statuses/order`,
      { statusIds: [a, c, b] },
      { token: workspace.owner.token },
    );
    expect(swap.status).toBe(200);
    expectOneBatch(await events(workspace, afterReorder), 2);

    const afterSwap = await lastEventId(workspace);
    const single = await t.http.patch(
      `/workspaces/${workspace.id}/statuses/${a}`,
      { name: 'Renamed' },
      { token: workspace.owner.token },
    );
    expect(single.status).toBe(200);
    expect(await events(workspace, afterSwap)).toMatchObject([
      { type: 'status.updated', batchId: null },
    ]);
  });

  it('gives a reorder of lists one batch', async () => {
    const workspace = await createWorkspace(t);
    const first = await createCollection(t, workspace);
    const second = await createCollection(t, workspace);
    const since = await lastEventId(workspace);
    const reorder = await t.http.put(
      `/workspaces/${workspace.id}/collections/order`,
      {
        collections: [
          { id: second.id, groupId: null },
          { id: first.id, groupId: null },
        ],
      },
      { token: workspace.owner.token },
    );
    expect(reorder.status).toBe(200);
    expectOneBatch(await events(workspace, since), 2);
  });

  it('gives a PATCH that both edits and moves a card one batch for its two events', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const first = await createItem(t, workspace, list.id, { title: 'First' });
    const second = await createItem(t, workspace, list.id, { title: 'Second' });
    const since = await lastEventId(workspace);
    const patch = await t.http.patch(
      `/workspaces/${workspace.id}/items/${first.id}`,
      { title: 'First, renamed', afterItemId: second.id },
      { token: workspace.owner.token },
    );
    expect(patch.status).toBe(200);
    const written = await events(workspace, since);
    expect(written.map((event) => event.type).sort()).toEqual(['item.moved', 'item.updated']);
    expectOneBatch(written, 2);

    const alone = await lastEventId(workspace);
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${first.id}`,
      { title: 'Only a title' },
      { token: workspace.owner.token },
    );
    expect(await events(workspace, alone)).toMatchObject([{ type: 'item.updated', batchId: null }]);
  });
});
