import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { at, present } from '../../../test/helpers/assert.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  selectOptions,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function query(workspace: TestWorkspace, listId: string, body: Record<string, unknown>) {
  return t.http.post(`/workspaces/${workspace.id}/collections/${listId}/query`, body, {
    token: workspace.owner.token,
  });
}

/** Every title, paging to the end with `limit`. */
async function pageAll(
  workspace: TestWorkspace,
  listId: string,
  definition: Record<string, unknown>,
  limit: number,
) {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const response = await query(workspace, listId, {
      definition,
      limit,
      ...(cursor ? { cursor } : {}),
    });
    expect(response.status, response.text).toBe(200);
    titles.push(...response.body.items.map((item: { title: string }) => item.title));
    cursor = response.body.nextCursor ?? undefined;
    if (cursor === undefined) return titles;
  }
  throw new Error('paging did not end');
}

describe('query pages', () => {
  it('pages in manual order by default, home and attached cards, never archived ones', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    const titles = [];
    for (let index = 0; index < 7; index++)
      titles.push((await createItem(t, workspace, list.id, { title: `c${index}` })).title);
    const visitor = await createItem(t, workspace, other.id, { title: 'visitor' });
    await t.http.post(
      `/workspaces/${workspace.id}/items/${visitor.id}/collections`,
      { collectionId: list.id },
      { token: workspace.owner.token },
    );
    const archived = await createItem(t, workspace, list.id, { title: 'archived' });
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${archived.id}`,
      { archived: true },
      { token: workspace.owner.token },
    );
    const first = await createItem(t, workspace, list.id, { title: 'first', afterItemId: null });
    const all = await pageAll(workspace, list.id, {}, 3);
    // Manual order: sort keys of different home lists interleave, so only the home list's order is fixed.
    expect([...all].sort()).toEqual(['first', ...titles, 'visitor'].sort());
    expect(all.filter((title) => title !== 'visitor')).toEqual(['first', ...titles]);
    const page = await query(workspace, list.id, { definition: {}, limit: 2 });
    // The visitor's key comes from another list's order and may sort before or after.
    const firstCard = at(
      page.body.items.filter((item) => item.collectionId === list.id),
      0,
    );
    expect(firstCard).toMatchObject({ id: first.id, key: first.key, collectionIds: [] });
    expect(firstCard).not.toHaveProperty('blocks');
  });

  it('sorts by a field with nulls last in both directions; ties follow the direction (desc reverses all)', async () => {
    const workspace = await createWorkspace(t);
    const points = await createField(t, workspace, {
      key: 'points',
      type: 'number',
      name: 'Points',
    });
    const list = await createCollection(t, workspace);
    const values = [3, null, 1, 3, 2, null, 10];
    for (const [index, value] of values.entries()) {
      await createItem(t, workspace, list.id, {
        title: `p${index}`,
        properties: value === null ? {} : { points: value },
      });
    }
    const asc = await pageAll(
      workspace,
      list.id,
      { sort: [{ fieldId: points.id, direction: 'asc' }] },
      2,
    );
    expect(asc).toEqual(['p2', 'p4', 'p0', 'p3', 'p6', 'p1', 'p5']);
    const desc = await pageAll(
      workspace,
      list.id,
      { sort: [{ fieldId: points.id, direction: 'desc' }] },
      2,
    );
    expect(desc).toEqual(['p6', 'p3', 'p0', 'p4', 'p2', 'p5', 'p1']);
    const byTitle = await pageAll(
      workspace,
      list.id,
      { sort: [{ attribute: 'title', direction: 'desc' }] },
      3,
    );
    expect(byTitle).toEqual(['p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('sorts by several keys, select options in their order, statuses in theirs', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const stage = await createField(t, workspace, {
      key: 'stage',
      type: 'select',
      name: 'Stage',
      config: selectOptions('Later', 'Now'),
    });
    const [later, now] = stage.config.options ?? [];
    const statuses = (await t.http.get(`/workspaces/${workspace.id}/statuses`, { token })).body;
    const list = await createCollection(t, workspace);
    await createItem(t, workspace, list.id, {
      title: 'a',
      properties: { stage: now?.id },
      statusId: at(statuses, 2).id,
    });
    await createItem(t, workspace, list.id, {
      title: 'b',
      properties: { stage: later?.id },
      statusId: at(statuses, 0).id,
    });
    await createItem(t, workspace, list.id, {
      title: 'c',
      properties: { stage: now?.id },
      statusId: at(statuses, 0).id,
    });
    await createItem(t, workspace, list.id, { title: 'd', statusId: at(statuses, 1).id });
    const sorted = await pageAll(
      workspace,
      list.id,
      {
        sort: [
          { fieldId: stage.id, direction: 'asc' },
          { attribute: 'statusId', direction: 'desc' },
        ],
      },
      1,
    );
    expect(sorted).toEqual(['b', 'a', 'c', 'd']);
  });

  it('filters with every kind of condition', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const tags = await createField(t, workspace, {
      key: 'tags',
      type: 'multi_select',
      name: 'Tags',
      config: { options: ['x', 'y', 'z'].map((label) => ({ label, color: '#000000' })) },
    });
    const [x, y, z] = (tags.config.options ?? []).map((option) => option.id);
    const due = await createField(t, workspace, { key: 'due', type: 'date', name: 'Due' });
    const done = await createField(t, workspace, { key: 'done', type: 'checkbox', name: 'Done' });
    const note = await createField(t, workspace, { key: 'note', type: 'text', name: 'Note' });
    const list = await createCollection(t, workspace);
    await createItem(t, workspace, list.id, {
      title: 'Alpha launch',
      properties: { tags: [x, y], due: '2026-01-10', done: true, note: '100% ready' },
    });
    await createItem(t, workspace, list.id, {
      title: 'Beta',
      properties: { tags: [y], due: '2026-01-20T15:00:00Z', note: 'draft_one' },
    });
    await createItem(t, workspace, list.id, {
      title: 'Gamma launch',
      properties: { tags: [z], done: false },
      body: 'rocket science',
    });
    await createItem(t, workspace, list.id, { title: 'Delta' });
    const titles = async (filter: unknown) => {
      const response = await query(workspace, list.id, { definition: { filter } });
      expect(response.status, response.text).toBe(200);
      return response.body.items.map((item: { title: string }) => item.title).sort();
    };
    expect(await titles({ fieldId: tags.id, op: 'hasAny', value: [x, z] })).toEqual([
      'Alpha launch',
      'Gamma launch',
    ]);
    expect(await titles({ fieldId: tags.id, op: 'hasAll', value: [x, y] })).toEqual([
      'Alpha launch',
    ]);
    expect(await titles({ fieldId: tags.id, op: 'hasNone', value: [y] })).toEqual([
      'Delta',
      'Gamma launch',
    ]);
    expect(await titles({ fieldId: tags.id, op: 'isEmpty' })).toEqual(['Delta']);
    expect(await titles({ fieldId: due.id, op: 'before', value: '2026-01-20' })).toEqual([
      'Alpha launch',
    ]);
    expect(await titles({ fieldId: due.id, op: 'onOrBefore', value: '2026-01-20' })).toEqual([
      'Alpha launch',
      'Beta',
    ]);
    expect(await titles({ fieldId: due.id, op: 'after', value: '2026-01-10' })).toEqual(['Beta']);
    expect(await titles({ fieldId: due.id, op: 'eq', value: '2026-01-20' })).toEqual(['Beta']);
    expect(await titles({ fieldId: due.id, op: 'isNotEmpty' })).toEqual(['Alpha launch', 'Beta']);
    expect(await titles({ fieldId: done.id, op: 'eq', value: false })).toEqual([
      'Beta',
      'Delta',
      'Gamma launch',
    ]);
    expect(await titles({ fieldId: note.id, op: 'contains', value: '%' })).toEqual([
      'Alpha launch',
    ]);
    expect(await titles({ fieldId: note.id, op: 'startsWith', value: 'DRAFT_' })).toEqual(['Beta']);
    expect(await titles({ attribute: 'title', op: 'contains', value: 'launch' })).toEqual([
      'Alpha launch',
      'Gamma launch',
    ]);
    expect(await titles({ not: { attribute: 'title', op: 'contains', value: 'launch' } })).toEqual([
      'Beta',
      'Delta',
    ]);
    expect(await titles({ fieldId: note.id, op: 'neq', value: 'draft_one' })).toEqual([
      'Alpha launch',
      'Delta',
      'Gamma launch',
    ]);
    expect(await titles({ op: 'search', value: 'rocket' })).toEqual(['Gamma launch']);
    expect(
      await titles({
        or: [
          { attribute: 'number', op: 'lte', value: 1 },
          { attribute: 'title', op: 'in', value: ['Delta'] },
        ],
      }),
    ).toEqual(['Alpha launch', 'Delta']);
    expect(
      await titles({
        attribute: 'createdAt',
        op: 'withinLast',
        value: { amount: 1, unit: 'days' },
      }),
    ).toHaveLength(4);
    expect(
      await titles({
        attribute: 'createdAt',
        op: 'withinNext',
        value: { amount: 1, unit: 'days' },
      }),
    ).toEqual([]);
    const soon = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${(await createItem(t, workspace, list.id, { title: 'Soon' })).id}`,
      { properties: { due: soon } },
      { token },
    );
    expect(
      await titles({ fieldId: due.id, op: 'withinNext', value: { amount: 1, unit: 'weeks' } }),
    ).toEqual(['Soon']);
    expect(
      await titles({ fieldId: due.id, op: 'withinLast', value: { amount: 1, unit: 'weeks' } }),
    ).toEqual([]);
    expect(await titles({ attribute: 'parentId', op: 'isEmpty' })).toHaveLength(5);
  });

  it('refuses tampered, malformed and foreign cursors with 400', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const other = await createCollection(t, workspace);
    for (let index = 0; index < 3; index++) await createItem(t, workspace, list.id);
    const firstPage = await query(workspace, list.id, { definition: {}, limit: 1 });
    const nextCursor = present(firstPage.body.nextCursor, 'nextCursor');
    expect(typeof nextCursor).toBe('string');
    const [payload = '', signature] = nextCursor.split('.');
    const tampered = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"values"', '"nulls"')).toString('base64url')}.${signature}`;
    for (const [cursor, listId, definition] of [
      ['garbage', list.id, {}],
      [tampered, list.id, {}],
      [`${payload}.AAAA`, list.id, {}],
      [nextCursor, list.id, { sort: [{ attribute: 'title' }] }],
      [nextCursor, list.id, { filter: { attribute: 'title', op: 'eq', value: 'x' } }],
      [nextCursor, other.id, {}],
    ] as const) {
      const response = await query(workspace, listId, { definition, cursor, limit: 1 });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_cursor');
    }
    expect(
      (await query(workspace, list.id, { definition: {}, limit: 1, cursor: nextCursor })).status,
    ).toBe(200);
    expect((await query(workspace, list.id, { definition: {}, limit: 201 })).status).toBe(400);
  });

  it('visits every card whose sort values stay put exactly once while others are inserted, edited, moved and deleted', async () => {
    const workspace = await createWorkspace(t);
    const points = await createField(t, workspace, {
      key: 'points',
      type: 'number',
      name: 'Points',
    });
    const list = await createCollection(t, workspace);
    const originals: string[] = [];
    for (let index = 0; index < 40; index++) {
      const item = await createItem(t, workspace, list.id, {
        title: `o${index}`,
        properties: { points: index % 7 },
      });
      originals.push(item.id);
    }
    // Cards whose sort value changes during the walk, and cards deleted: the
    // promise is not about them (keyset paging holds no snapshot).
    const movers = originals.slice(0, 4);
    const deleted = originals.slice(36);
    const steady = originals.slice(4, 36);
    const token = workspace.owner.token;
    const definition = { sort: [{ fieldId: points.id, direction: 'asc' }] };
    const seen: string[] = [];
    let cursor: string | undefined;
    let round = 0;
    do {
      const response = await query(workspace, list.id, {
        definition,
        limit: 5,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...response.body.items.map((item: { id: string }) => item.id));
      cursor = response.body.nextCursor ?? undefined;
      // Meanwhile: new cards anywhere in the order, title edits of seen and
      // unseen cards, a sort value raised, a card deleted.
      const mover = movers[round % movers.length];
      const gone = deleted[round];
      await Promise.all([
        createItem(t, workspace, list.id, {
          title: `n${round}`,
          properties: { points: round % 7 },
        }),
        t.http.patch(
          `/workspaces/${workspace.id}/items/${steady[(round * 7) % steady.length]}`,
          { title: `edited ${round}` },
          { token },
        ),
        mover === undefined
          ? undefined
          : t.http.patch(
              `/workspaces/${workspace.id}/items/${mover}`,
              { properties: { points: 7 + round } },
              { token },
            ),
        gone === undefined
          ? undefined
          : t.http.delete(`/workspaces/${workspace.id}/items/${gone}`, { token }),
      ]);
      round += 1;
    } while (cursor !== undefined);
    const seenSteady = seen.filter((id) => steady.includes(id));
    expect(seenSteady.sort()).toEqual([...steady].sort());
    const others = seen.filter((id) => !movers.includes(id));
    expect(new Set(others).size).toBe(others.length);
  });
});
