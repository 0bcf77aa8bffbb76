import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  insertItems,
  selectOptions,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';
import { backfillItemValues } from './item-values-backfill.js';

const t = useApp();

async function setup() {
  const workspace = await createWorkspace(t);
  const token = workspace.owner.token;
  const stage = await createField(t, workspace, {
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: selectOptions('a', 'b', 'c'),
  });
  const tags = await createField(t, workspace, {
    key: 'tags',
    type: 'multi_select',
    name: 'Tags',
    config: selectOptions('red', 'blue'),
  });
  const owner = await createField(t, workspace, { key: 'owner', type: 'person', name: 'Owner' });
  const [a, b, c] = (stage.config.options ?? []).map((option) => option.id);
  const [red, blue] = (tags.config.options ?? []).map((option) => option.id);
  const home = await createCollection(t, workspace);
  const other = await createCollection(t, workspace);
  return { workspace, token, stage, tags, owner, a, b, c, red, blue, home, other };
}

/** The narrow table's rows of the workspace, and the rows its cards call for now. */
async function narrowRows(workspace: TestWorkspace) {
  const stored = await sql<{ row: string }>`
    select concat_ws('/', v.item_id, v.collection_id, v.field_id, coalesce(v.value, '-')) as row
    from item_values v join items on items.id = v.item_id
    where items.workspace_id = ${workspace.id} order by 1`.execute(t.db);
  const wanted = await sql<{ row: string }>`
    select concat_ws('/', items.id, items.collection_id, v.field_id, coalesce(v.value, '-')) as row
    from items cross join lateral item_value_rows(items.workspace_id, items.properties) as v
    where items.workspace_id = ${workspace.id} and items.archived_at is null order by 1`.execute(
    t.db,
  );
  return { stored: stored.rows.map((r) => r.row), wanted: wanted.rows.map((r) => r.row) };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/**
 * The counts from the narrow table (no filter) equal the counts over the
 * cards' JSON (a filter every card passes forces that path), for each field
 * and list; and the table holds exactly the rows the cards call for.
 */
async function expectConsistent(s: Setup) {
  const rows = await narrowRows(s.workspace);
  expect(rows.stored).toEqual(rows.wanted);
  for (const list of [s.home, s.other]) {
    for (const field of [s.stage, s.tags, s.owner]) {
      const url = `/workspaces/${s.workspace.id}/collections/${list.id}/group-counts` as const;
      const groupBy = { fieldId: field.id };
      const narrow = await t.http.post(url, { definition: { groupBy } }, { token: s.token });
      const wide = await t.http.post(
        url,
        { definition: { groupBy, filter: { attribute: 'number', op: 'gt', value: 0 } } },
        { token: s.token },
      );
      expect(narrow.status).toBe(200);
      expect(narrow.body).toEqual(wide.body);
    }
  }
}

describe('item_values (the narrow table behind counts and kanban columns)', () => {
  it('follows create, PATCH, move, attach, archive, restore, duplicate and delete', async () => {
    const s = await setup();
    const { workspace, token, a, b, red, blue } = s;
    const ws = `/workspaces/${workspace.id}` as const;
    const userId = workspace.owner.user.id;
    const one = await createItem(t, workspace, s.home.id, {
      properties: { stage: a, tags: [red, blue], owner: userId },
    });
    const two = await createItem(t, workspace, s.home.id, { properties: { stage: a } });
    await createItem(t, workspace, s.home.id);
    await expectConsistent(s);
    const counts = await t.http.post(
      `${ws}/collections/${s.home.id}/group-counts`,
      { definition: { groupBy: { fieldId: s.stage.id } } },
      { token },
    );
    expect(counts.body).toEqual([
      { value: a, count: 2 },
      { value: b, count: 0 },
      { value: s.c, count: 0 },
      { value: null, count: 1 },
    ]);

    const patch = (id: string, body: Record<string, unknown>) =>
      t.http.patch(`${ws}/items/${id}`, body, { token });
    expect((await patch(two.id, { properties: { stage: b, tags: [blue] } })).status).toBe(200);
    expect((await patch(one.id, { title: 'Renamed', properties: { tags: null } })).status).toBe(
      200,
    );
    await expectConsistent(s);

    const moved = await t.http.post(
      `${ws}/items/${two.id}/move`,
      { collectionId: s.other.id },
      { token },
    );
    expect(moved.status).toBe(200);
    const attached = await t.http.post(
      `${ws}/items/${one.id}/collections`,
      { collectionId: s.other.id },
      { token },
    );
    expect(attached.status).toBeLessThan(300);
    await expectConsistent(s);

    expect((await patch(one.id, { archived: true })).status).toBe(200);
    await expectConsistent(s);
    expect((await patch(one.id, { archived: false })).status).toBe(200);
    const copy = await t.http.post(`${ws}/items/${one.id}/duplicate`, {}, { token });
    expect(copy.status).toBe(201);
    await expectConsistent(s);

    expect((await t.http.delete(`${ws}/items/${two.id}`, { token })).status).toBe(204);
    await expectConsistent(s);
  });

  it('follows bulk updates, imports, option and field removal, and fields added later', async () => {
    const s = await setup();
    const { workspace, token, a, b, c, red } = s;
    const ws = `/workspaces/${workspace.id}` as const;
    for (let index = 0; index < 6; index++) {
      await createItem(t, workspace, s.home.id, {
        properties: { stage: [a, b, c][index % 3], tags: index % 2 === 0 ? [red] : [] },
      });
    }
    const bulk = await t.http.post(
      `${ws}/collections/${s.home.id}/bulk-update`,
      {
        definition: { filter: { fieldId: s.stage.id, op: 'eq', value: a } },
        patch: { properties: { stage: c } },
      },
      { token },
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body.changed).toBe(2);
    await expectConsistent(s);

    const imported = await t.http.post(
      `${ws}/import`,
      {
        collections: [{ externalSource: 'x', externalId: 'l', name: 'Imported', keyPrefix: 'IM' }],
        items: [
          {
            externalSource: 'x',
            externalId: '1',
            title: 'One',
            collection: { externalId: 'l' },
            properties: { stage: b, tags: [red] },
          },
          {
            externalSource: 'x',
            externalId: '2',
            title: 'Two',
            collection: { externalId: 'l' },
          },
        ],
      },
      { token },
    );
    expect(imported.status).toBe(200);
    await expectConsistent(s);

    // Removing option c takes it off every card; deleting a field removes its rows.
    const stageOptions = (s.stage.config.options ?? []).filter((option) => option.id !== c);
    const edited = await t.http.patch(
      `${ws}/fields/${s.stage.id}`,
      { config: { options: stageOptions } },
      { token },
    );
    expect(edited.status).toBe(200);
    await expectConsistent(s);
    expect((await t.http.delete(`${ws}/fields/${s.tags.id}`, { token })).status).toBe(204);
    const left = await sql<{ count: number }>`
      select count(*)::int as count from item_values where field_id = ${s.tags.id}`.execute(t.db);
    expect(left.rows[0]?.count).toBe(0);

    // A select field added after the cards: queued, counted over the cards until a
    // background batch fills its rows in, then counted from the narrow table.
    const later = await createField(t, workspace, {
      key: 'later',
      type: 'select',
      name: 'Later',
      config: selectOptions('x'),
    });
    const [x] = (later.config.options ?? []).map((option) => option.id);
    const [first] = (
      await t.db
        .selectFrom('items')
        .select('id')
        .where('collection_id', '=', s.home.id)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
    const laterCounts = () =>
      t.http.post(
        `${ws}/collections/${s.home.id}/group-counts`,
        { definition: { groupBy: { fieldId: later.id } } },
        { token },
      );
    expect((await laterCounts()).body).toEqual([
      { value: x, count: 0 },
      { value: null, count: 6 },
    ]);
    // A card written while the field is queued gets its row from the write; the batch skips it.
    const set = await t.http.patch(`${ws}/items/${first}`, { properties: { later: x } }, { token });
    expect(set.status).toBe(200);
    const before = await narrowRows(workspace);
    expect(before.stored).not.toEqual(before.wanted);
    expect(await backfillItemValues(t.db, 2)).toBeGreaterThan(1);
    const after = await narrowRows(workspace);
    expect(after.stored).toEqual(after.wanted);
    const queued = await t.db.selectFrom('item_value_backfills').select('field_id').execute();
    expect(queued).toEqual([]);
    expect((await laterCounts()).body).toEqual([
      { value: x, count: 1 },
      { value: null, count: 5 },
    ]);
  });

  it.runIf(process.env.TEST_DATABASE_URL !== undefined)(
    'the background fill and concurrent card writes leave exactly the rows the cards call for',
    async () => {
      for (let round = 0; round < 3; round++) {
        const s = await setup();
        const ws = `/workspaces/${s.workspace.id}` as const;
        const ids = await insertItems(t, s.workspace, s.home.id, 400);
        const later = await createField(t, s.workspace, {
          key: 'later',
          type: 'select',
          name: 'Later',
          config: selectOptions('x'),
        });
        const x = later.config.options?.[0]?.id;
        const writers = Array.from({ length: 6 }, async (_, writer) => {
          for (let step = 0; step < 15; step++) {
            const id = ids[(writer * 61 + step * 17 + round) % ids.length] ?? '';
            const value = step % 3 === 2 ? null : x;
            const response = await t.http.patch(
              `${ws}/items/${id}`,
              { properties: { later: value } },
              { token: s.token },
            );
            expect(response.status).toBe(200);
          }
        });
        await Promise.all([backfillItemValues(t.db, 7), ...writers]);
        await backfillItemValues(t.db, 7);
        const rows = await narrowRows(s.workspace);
        expect(rows.stored).toEqual(rows.wanted);
      }
    },
  );
});
