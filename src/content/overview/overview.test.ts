import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { at } from '../../../test/helpers/assert.js';
import { createCollection, createItem, createWorkspace } from '../../../test/helpers/factories.js';
import { workspaceOverview } from './service.js';

const t = useApp();

function queryCounter() {
  const counter = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counter.queries += 1;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { counter, plugin };
}

describe('workspace overview', () => {
  it('counts cards per category and per list, activity and the catalog', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const statuses = (await t.http.get(`/workspaces/${workspace.id}/statuses`, { token })).body;
    const a = await createCollection(t, workspace, { name: 'Alpha' });
    const b = await createCollection(t, workspace, { name: 'Beta' });
    await createItem(t, workspace, a.id);
    await createItem(t, workspace, a.id, { statusId: at(statuses, 2).id });
    const archived = await createItem(t, workspace, b.id);
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${archived.id}`,
      { archived: true },
      { token },
    );
    const response = await t.api.get(`/workspaces/${workspace.id}/overview`, { token });
    expect(response.status).toBe(200);
    expect(response.body.cardsByCategory).toEqual({
      backlog: 0,
      unstarted: 1,
      started: 0,
      completed: 1,
      canceled: 0,
    });
    expect(response.body.cardsByCollection).toEqual([
      { collectionId: a.id, name: 'Alpha', keyPrefix: a.keyPrefix, cards: 2 },
      { collectionId: b.id, name: 'Beta', keyPrefix: b.keyPrefix, cards: 0 },
    ]);
    expect(response.body.activity).toHaveLength(14);
    // 3 seeded statuses, 2 lists, 3 cards, 1 archive; today is last (a run may straddle midnight).
    const total = response.body.activity.reduce(
      (sum: number, day: { events: number }) => sum + day.events,
      0,
    );
    expect(total).toBe(9);
    expect(
      response.body.activity.slice(0, 12).every((day: { events: number }) => day.events === 0),
    ).toBe(true);
    expect(at(response.body.activity, -1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(response.body.catalog).toEqual({
      collections: 2,
      fields: 0,
      statuses: 3,
      views: 0,
      members: 1,
      items: 2,
      archivedItems: 1,
      files: 0,
    });
    expect(
      (
        await t.http.get(`/workspaces/${workspace.id}/overview`, {
          token,
          query: { timeZone: 'Nowhere/City' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.http.get(`/workspaces/${workspace.id}/overview`, {
          token,
          query: { timeZone: 'Asia/Tokyo' },
        })
      ).status,
    ).toBe(200);
  });

  it('takes three queries whatever the number of lists', async () => {
    const workspace = await createWorkspace(t);
    const counts: number[] = [];
    for (const lists of [1, 25]) {
      while (
        (
          await t.db
            .selectFrom('collections')
            .select('id')
            .where('workspace_id', '=', workspace.id)
            .execute()
        ).length < lists
      ) {
        const list = await createCollection(t, workspace);
        await createItem(t, workspace, list.id);
      }
      const { counter, plugin } = queryCounter();
      const overview = await workspaceOverview(t.db.withPlugin(plugin), workspace.id, 'UTC');
      expect(overview.cardsByCollection).toHaveLength(lists);
      counts.push(counter.queries);
    }
    expect(counts).toEqual([3, 3]);
  });
});
