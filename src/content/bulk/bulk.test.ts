import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { collectionRoute, workspaceWithStatuses } from '../../../test/fixtures/workspace.js';
import {
  addMember,
  allEvents,
  createCollection,
  createField,
  createItem,
  insertItems,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function setup() {
  const { workspace, token, statuses } = await workspaceWithStatuses(t);
  const points = await createField(t, workspace, { key: 'points', type: 'number', name: 'Points' });
  const list = await createCollection(t, workspace);
  const url = collectionRoute(workspace, list.id);
  return { workspace, token, statuses, points, list, url };
}

function preview<P extends string>(workspace: TestWorkspace, url: P, definition: unknown) {
  return t.http.post(url, { definition }, { token: workspace.owner.token });
}

describe('bulk edits', () => {
  it('previews and updates only the cards that change, one event each under one batch', async () => {
    const { workspace, token, statuses, points, list, url } = await setup();
    const a = await createItem(t, workspace, list.id, { properties: { points: 1 } });
    const b = await createItem(t, workspace, list.id, { properties: { points: 5 } });
    await createItem(t, workspace, list.id, { properties: { points: 9 } });
    const definition = { filter: { fieldId: points.id, op: 'lte', value: 5 } };
    const counted = await preview(workspace, url('bulk-preview'), definition);
    expect(counted.body).toEqual({ count: 2, confirmAbove: 200, max: 5000 });
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${b.id}`,
      { statusId: statuses[1] },
      { token },
    );
    const result = await t.api.post(
      url('bulk-update'),
      { definition, patch: { statusId: statuses[1], properties: { points: null } } },
      { token },
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ batchId: expect.any(String), changed: 2 });
    const events = await allEvents(t, workspace, { batchId: result.body.batchId });
    expect(events.map((event) => [event.resource.id, event.changes])).toEqual(
      expect.arrayContaining([
        [
          a.id,
          {
            statusId: { before: statuses[0], after: statuses[1] },
            'properties.points': { before: 1, after: null },
          },
        ],
        [b.id, { 'properties.points': { before: 5, after: null } }],
      ]),
    );
    expect(
      events.every(
        (event) => event.type === 'item.updated' && event.batchId === result.body.batchId,
      ),
    ).toBe(true);
    const again = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { statusId: statuses[1] } },
      { token },
    );
    expect(again.body.changed).toBe(1);
    const archive = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { archived: true } },
      { token },
    );
    expect(archive.body.changed).toBe(3);
    expect((await preview(workspace, url('bulk-preview'), {})).body.count).toBe(0);
  });

  it('refuses an empty patch and invalid values, writing nothing', async () => {
    const { workspace, token, list, url } = await setup();
    await createItem(t, workspace, list.id);
    const before = (await allEvents(t, workspace)).length;
    const cases: Array<[unknown, string]> = [
      [{}, 'empty_patch'],
      [{ properties: {} }, 'empty_patch'],
      [{ properties: { points: 'many' } }, 'invalid_property_value'],
      [{ properties: { nope: 1 } }, 'unknown_property'],
      [{ statusId: '0190d6e2-3c4b-7def-8123-456789abcdef' }, 'invalid_status'],
    ];
    for (const [patch, code] of cases) {
      const response = await t.http.post(url('bulk-update'), { definition: {}, patch }, { token });
      expect(response.status, JSON.stringify(patch)).toBe(400);
      expect(response.body.error.code).toBe(code);
    }
    const badFilter = await t.http.post(
      url('bulk-update'),
      {
        definition: { filter: { attribute: 'nope', op: 'eq', value: 1 } },
        patch: { archived: true },
      },
      { token },
    );
    expect(badFilter.body.error.code).toBe('unknown_attribute');
    expect(await allEvents(t, workspace)).toHaveLength(before);
    const viewer = await addMember(t, workspace, 'viewer');
    expect(
      (
        await t.http.post(
          url('bulk-update'),
          { definition: {}, patch: { archived: true } },
          { token: viewer.token },
        )
      ).status,
    ).toBe(403);
    expect(
      (await t.http.post(url('bulk-preview'), { definition: {} }, { token: viewer.token })).status,
    ).toBe(200);
  });

  it('needs expectedCount above 200 and refuses above 5000', async () => {
    const { workspace, token, list, url, statuses } = await setup();
    await insertItems(t, workspace, list.id, 300);
    const needs = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { statusId: statuses[1] } },
      { token },
    );
    expect(needs.status).toBe(400);
    expect(needs.body.error).toMatchObject({
      code: 'expected_count_required',
      details: { count: 300 },
    });
    const wrong = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { statusId: statuses[1] }, expectedCount: 299 },
      { token },
    );
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.code).toBe('expected_count_mismatch');
    const done = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { statusId: statuses[1] }, expectedCount: 300 },
      { token },
    );
    expect(done.body.changed).toBe(300);
    expect(await allEvents(t, workspace, { batchId: done.body.batchId })).toHaveLength(300);

    await insertItems(t, workspace, list.id, 4701);
    const tooMany = await t.http.post(
      url('bulk-update'),
      { definition: {}, patch: { statusId: statuses[0] }, expectedCount: 5001 },
      { token },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({
      code: 'bulk_too_large',
      details: { count: 5001, max: 5000 },
    });
  });

  it('answers 409 to the second of two racing updates of one selection', async () => {
    const { workspace, token, list, url, statuses } = await setup();
    await insertItems(t, workspace, list.id, 250);
    const definition = { filter: { attribute: 'statusId', op: 'eq', value: statuses[0] } };
    const { count } = (await preview(workspace, url('bulk-preview'), definition)).body;
    expect(count).toBe(250);
    const [first, second] = await Promise.all([
      t.http.post(
        url('bulk-update'),
        { definition, patch: { statusId: statuses[1] }, expectedCount: count },
        { token },
      ),
      t.http.post(
        url('bulk-update'),
        { definition, patch: { statusId: statuses[2] }, expectedCount: count },
        { token },
      ),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const winner = first.status === 200 ? first : second;
    expect(winner.body.changed).toBe(250);
    expect((await preview(workspace, url('bulk-preview'), definition)).body.count).toBe(0);
  });
});
