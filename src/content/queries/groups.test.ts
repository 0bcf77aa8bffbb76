import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { collectionRoute, workspaceWithStatuses } from '../../../test/fixtures/workspace.js';
import { at, present } from '../../../test/helpers/assert.js';
import {
  addMember,
  createCollection,
  createField,
  createItem,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function setup() {
  const { workspace, token, statuses } = await workspaceWithStatuses(t);
  const tags = await createField(t, workspace, {
    key: 'tags',
    type: 'multi_select',
    name: 'Tags',
    config: { options: ['red', 'blue'].map((label) => ({ label, color: '#000000' })) },
  });
  const [red, blue] = (tags.config.options ?? []).map((option) => option.id);
  const due = await createField(t, workspace, { key: 'due', type: 'date', name: 'Due' });
  const owner = await createField(t, workspace, { key: 'owner', type: 'person', name: 'Owner' });
  const list = await createCollection(t, workspace);
  const url = collectionRoute(workspace, list.id);
  return { workspace, token, statuses, tags, red, blue, due, owner, list, url };
}

describe('group counts', () => {
  it('counts per status with every status listed, per multi-select value with the empty group', async () => {
    const { workspace, token, statuses, tags, red, blue, list, url } = await setup();
    await createItem(t, workspace, list.id, {
      statusId: statuses[0],
      properties: { tags: [red, blue] },
    });
    await createItem(t, workspace, list.id, { statusId: statuses[0], properties: { tags: [red] } });
    await createItem(t, workspace, list.id, { statusId: statuses[2] });
    const byStatus = await t.http.post(
      url('group-counts'),
      { definition: { groupBy: { attribute: 'statusId' } } },
      { token },
    );
    expect(byStatus.body).toEqual([
      { value: statuses[0], count: 2 },
      { value: statuses[1], count: 0 },
      { value: statuses[2], count: 1 },
    ]);
    const byTag = await t.api.post(
      url('group-counts'),
      { definition: { groupBy: { fieldId: tags.id } } },
      { token },
    );
    expect(byTag.body).toEqual([
      { value: red, count: 2 },
      { value: blue, count: 1 },
      { value: null, count: 1 },
    ]);
    const filtered = await t.http.post(
      url('group-counts'),
      {
        definition: {
          filter: { fieldId: tags.id, op: 'hasAny', value: [blue] },
          groupBy: { fieldId: tags.id },
        },
      },
      { token },
    );
    expect(filtered.body).toEqual([
      { value: red, count: 1 },
      { value: blue, count: 1 },
    ]);
    const none = await t.http.post(url('group-counts'), { definition: {} }, { token });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('group_by_required');
  });

  it('groups dates by calendar day in the named time zone', async () => {
    const { workspace, token, due, list, url } = await setup();
    await createItem(t, workspace, list.id, { properties: { due: '2026-03-01' } });
    await createItem(t, workspace, list.id, { properties: { due: '2026-03-01T23:30:00Z' } });
    await createItem(t, workspace, list.id, {});
    const utc = await t.http.post(
      url('group-counts'),
      { definition: { groupBy: { fieldId: due.id } } },
      { token },
    );
    expect(utc.body).toEqual([
      { value: '2026-03-01', count: 2 },
      { value: null, count: 1 },
    ]);
    const paris = await t.http.post(
      url('group-counts'),
      { definition: { groupBy: { fieldId: due.id, timeZone: 'Europe/Paris' } } },
      { token },
    );
    expect(paris.body).toEqual([
      { value: '2026-03-01', count: 1 },
      { value: '2026-03-02', count: 1 },
      { value: null, count: 1 },
    ]);
    const days = await t.http.post(
      url('grouped-query'),
      {
        definition: { groupBy: { fieldId: due.id, timeZone: 'Europe/Paris' } },
        groups: ['2026-03-01', '2026-03-02', '2026-03-03'],
      },
      { token },
    );
    expect(days.body.groups.map((group) => [group.value, group.count, group.items.length])).toEqual(
      [
        ['2026-03-01', 1, 1],
        ['2026-03-02', 1, 1],
        ['2026-03-03', 0, 0],
      ],
    );
  });
});

describe('grouped query', () => {
  it('answers every requested column, empty ones too, with per-group counts and cursors', async () => {
    const { workspace, token, statuses, list, url, owner } = await setup();
    const member = await addMember(t, workspace, 'member');
    for (let index = 0; index < 5; index++) {
      await createItem(t, workspace, list.id, {
        title: `todo ${index}`,
        statusId: statuses[0],
        properties: index < 2 ? { owner: member.user.id } : {},
      });
    }
    await createItem(t, workspace, list.id, { title: 'done', statusId: statuses[2] });
    const definition = { groupBy: { attribute: 'statusId' } };
    const first = await t.http.post(
      url('grouped-query'),
      { definition, groups: statuses, limit: 2 },
      { token },
    );
    expect(first.status).toBe(200);
    expect(
      first.body.groups.map((group) => [
        group.value,
        group.count,
        group.items.map((item) => item.title),
        group.nextCursor === null,
      ]),
    ).toEqual([
      [statuses[0], 5, ['todo 0', 'todo 1'], false],
      [statuses[1], 0, [], true],
      [statuses[2], 1, ['done'], true],
    ]);
    const more = await t.http.post(
      url('grouped-query'),
      {
        definition,
        groups: [statuses[0]],
        cursors: { [at(statuses, 0)]: at(first.body.groups, 0).nextCursor },
        limit: 2,
      },
      { token },
    );
    expect(at(more.body.groups, 0).items.map((item) => item.title)).toEqual(['todo 2', 'todo 3']);
    const wrongGroup = await t.http.post(
      url('grouped-query'),
      {
        definition,
        groups: [statuses[2]],
        cursors: { [at(statuses, 2)]: at(first.body.groups, 0).nextCursor },
      },
      { token },
    );
    expect(wrongGroup.body.error.code).toBe('invalid_cursor');
    const byOwner = await t.http.post(
      url('grouped-query'),
      { definition: { groupBy: { fieldId: owner.id } }, groups: [member.user.id, null] },
      { token },
    );
    expect(byOwner.body.groups.map((group) => [group.value, group.count])).toEqual([
      [member.user.id, 2],
      [null, 4],
    ]);
    const badValue = await t.http.post(
      url('grouped-query'),
      { definition, groups: ['not-a-status'] },
      { token },
    );
    expect(badValue.body.error.code).toBe('invalid_group');
    const notGroupable = await t.http.post(
      url('grouped-query'),
      { definition: { groupBy: { attribute: 'title' } }, groups: ['x'] },
      { token },
    );
    expect(notGroupable.body.error.code).toBe('field_not_groupable');
  });
});

describe('search', () => {
  it('ranks title matches above body matches, pages by cursor, skips archived cards', async () => {
    const { workspace, token, list } = await setup();
    await createItem(t, workspace, list.id, {
      title: 'Notes',
      body: 'the rocket is mentioned here',
    });
    await createItem(t, workspace, list.id, { title: 'Rocket launch', body: 'rocket rocket' });
    const archived = await createItem(t, workspace, list.id, { title: 'Old rocket' });
    await t.http.patch(
      `/workspaces/${workspace.id}/items/${archived.id}`,
      { archived: true },
      { token },
    );
    await createItem(t, workspace, list.id, { title: 'Unrelated' });
    const first = await t.http.get(`/workspaces/${workspace.id}/search`, {
      token,
      query: { q: 'rocket', limit: '1' },
    });
    expect(first.status).toBe(200);
    expect(first.body.items.map((item) => item.title)).toEqual(['Rocket launch']);
    expect(at(first.body.items, 0).rank).toBeGreaterThan(0);
    const cursor = present(first.body.nextCursor, 'nextCursor');
    const second = await t.http.get(`/workspaces/${workspace.id}/search`, {
      token,
      query: { q: 'rocket', limit: '1', cursor },
    });
    expect(second.body.items.map((item) => item.title)).toEqual(['Notes']);
    expect(second.body.nextCursor).toBeNull();
    const other = await t.http.get(`/workspaces/${workspace.id}/search`, {
      token,
      query: { q: 'launch', cursor },
    });
    expect(other.status).toBe(400);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/search`, { token, query: { q: '' } })).status,
    ).toBe(400);
  });

  it('follows title and body edits, archiving and deletion; a property edit leaves the index alone', async () => {
    const { workspace, token, list } = await setup();
    const points = await createField(t, workspace, {
      key: 'points',
      type: 'number',
      name: 'Points',
    });
    const card = await createItem(t, workspace, list.id, { title: 'Comet', body: 'tail' });
    const search = async (q: string) =>
      (
        await t.http.get(`/workspaces/${workspace.id}/search`, { token, query: { q } })
      ).body.items.map((item) => item.id);
    const searchRow = () =>
      sql<{
        version: string;
      }>`select xmin::text as version from item_search where item_id = ${card.id}`
        .execute(t.db)
        .then((result) => result.rows[0]?.version);
    expect(await search('comet')).toEqual([card.id]);
    const before = await searchRow();
    const itemUrl = `/workspaces/${workspace.id}/items/${card.id}` as const;
    await t.http.patch(itemUrl, { properties: { [points.key]: 5 } }, { token });
    expect(await searchRow()).toBe(before);
    await t.http.patch(itemUrl, { title: 'Asteroid', body: 'rock' }, { token });
    expect(await search('comet')).toEqual([]);
    expect(await search('asteroid')).toEqual([card.id]);
    expect(await search('rock')).toEqual([card.id]);
    await t.http.patch(itemUrl, { archived: true }, { token });
    expect(await search('asteroid')).toEqual([]);
    await t.http.patch(itemUrl, { archived: false }, { token });
    expect(await search('asteroid')).toEqual([card.id]);
    await t.http.delete(itemUrl, { token });
    expect(await search('asteroid')).toEqual([]);
    const rows = await sql`select 1 from item_search where item_id = ${card.id}`.execute(t.db);
    expect(rows.rows).toEqual([]);
  });
});
