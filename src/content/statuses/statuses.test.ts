import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../../test/fixtures/workspace.js';
import { at } from '../../../test/helpers/assert.js';
import { allEvents, createWorkspace } from '../../../test/helpers/factories.js';

const t = useApp();

describe('statuses', () => {
  it('creates a status at the end, for admins only, with unique names', async () => {
    const { workspace, member } = await workspaceWithMembers(t, ['member']);
    const body = { name: 'Review', color: '#AABBCC', category: 'started' };
    expect(
      (await t.http.post(`/workspaces/${workspace.id}/statuses`, body, { token: member.token }))
        .status,
    ).toBe(403);
    const created = await t.http.post(`/workspaces/${workspace.id}/statuses`, body, {
      token: workspace.owner.token,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Review',
      color: '#aabbcc',
      category: 'started',
      position: 3,
    });
    const duplicate = await t.http.post(
      `/workspaces/${workspace.id}/statuses`,
      { ...body, name: 'review' },
      { token: workspace.owner.token },
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('status_name_taken');
    for (const bad of [
      { ...body, category: 'doing' },
      { ...body, color: 'red' },
      { ...body, name: ' ' },
      { name: 'X', color: '#000000' },
    ]) {
      expect(
        (
          await t.http.post(`/workspaces/${workspace.id}/statuses`, bad, {
            token: workspace.owner.token,
          })
        ).status,
      ).toBe(400);
    }
  });

  it('updates a status and logs only what changed', async () => {
    const workspace = await createWorkspace(t);
    const statuses = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
    ).body;
    const todo = at(statuses, 0);
    const response = await t.http.patch(
      `/workspaces/${workspace.id}/statuses/${todo.id}`,
      { name: 'To do', color: todo.color },
      { token: workspace.owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('To do');
    const events = await allEvents(t, workspace, { type: 'status.updated' });
    expect(events.map((event) => event.changes)).toEqual([
      { name: { before: 'Todo', after: 'To do' } },
    ]);
    const unknown = await t.http.patch(
      `/workspaces/${workspace.id}/statuses/0190d6e2-3c4b-7def-8123-456789abcdef`,
      { name: 'X' },
      { token: workspace.owner.token },
    );
    expect(unknown.status).toBe(404);
  });

  it('reorders with the full list and logs one event per moved status', async () => {
    const workspace = await createWorkspace(t);
    const ids = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
    ).body.map((status: { id: string }) => status.id);
    const order = [ids[0], ids[2], ids[1]];
    const response = await t.http.put(
      `/workspaces/${workspace.id}/statuses/order`,
      { statusIds: order },
      { token: workspace.owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body.map((status: { id: string }) => status.id)).toEqual(order);
    const events = await allEvents(t, workspace, { type: 'status.updated' });
    expect(events.map((event) => event.resource.id).sort()).toEqual([ids[1], ids[2]].sort());
    for (const bad of [
      [ids[0], ids[1]],
      [...ids, ids[0]],
      [ids[0], ids[1], '0190d6e2-3c4b-7def-8123-456789abcdef'],
    ]) {
      const refused = await t.http.put(
        `/workspaces/${workspace.id}/statuses/order`,
        { statusIds: bad },
        { token: workspace.owner.token },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_order');
    }
  });

  it('deletes a status, but never the last one', async () => {
    const workspace = await createWorkspace(t);
    const ids = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
    ).body.map((status: { id: string }) => status.id);
    for (const id of ids.slice(0, 2)) {
      expect(
        (
          await t.http.delete(`/workspaces/${workspace.id}/statuses/${id}`, {
            token: workspace.owner.token,
          })
        ).status,
      ).toBe(204);
    }
    const last = await t.http.delete(`/workspaces/${workspace.id}/statuses/${ids[2]}`, {
      token: workspace.owner.token,
    });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('last_status');
    const events = await allEvents(t, workspace, { type: 'status.deleted' });
    expect(events).toHaveLength(2);
    expect(events[0]?.changes.name).toEqual({ before: 'Todo', after: null });
  });
});

describe('statuses in use', () => {
  it('answers 409 status_in_use while an item has the status', async () => {
    const { createCollection, createItem } = await import('../../../test/helpers/factories.js');
    const workspace = await createWorkspace(t);
    const statuses = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
    ).body;
    const todo = at(statuses, 0);
    const doing = at(statuses, 1);
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id, { statusId: todo.id });
    const refused = await t.http.delete(`/workspaces/${workspace.id}/statuses/${todo.id}`, {
      token: workspace.owner.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('status_in_use');
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${item.id}`,
      { statusId: doing.id },
      { token: workspace.owner.token },
    );
    expect(
      (
        await t.http.delete(`/workspaces/${workspace.id}/statuses/${todo.id}`, {
          token: workspace.owner.token,
        })
      ).status,
    ).toBe(204);
  });
});
