import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { at } from '../../../test/helpers/assert.js';
import {
  addMember,
  allEvents,
  createCollection,
  createField,
  createWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function setup() {
  const workspace = await createWorkspace(t);
  const stage = await createField(t, workspace, {
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: { options: [{ label: 'Open', color: '#000000' }] },
  });
  const due = await createField(t, workspace, { key: 'due', type: 'date', name: 'Due' });
  const tags = await createField(t, workspace, { key: 'tags', type: 'multi_select', name: 'Tags' });
  const list = await createCollection(t, workspace);
  const statuses = (
    await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: workspace.owner.token })
  ).body;
  return { workspace, stage, due, tags, list, statusId: at(statuses, 0).id };
}

describe('saved views', () => {
  it('stores a full definition and display, replaced wholesale on update', async () => {
    const { workspace, stage, due, list, statusId } = await setup();
    const definition = {
      filter: {
        and: [
          { fieldId: stage.id, op: 'in', value: [stage.config.options?.[0]?.id] },
          {
            or: [
              { attribute: 'statusId', op: 'eq', value: statusId },
              { not: { attribute: 'title', op: 'contains', value: 'draft' } },
            ],
          },
          { fieldId: due.id, op: 'withinNext', value: { amount: 7, unit: 'days' } },
          { op: 'search', value: 'launch' },
        ],
      },
      sort: [
        { fieldId: due.id, direction: 'desc' },
        { attribute: 'number', direction: 'asc' },
      ],
      groupBy: { fieldId: due.id, timeZone: 'Europe/Paris' },
    };
    const display = {
      layout: 'board',
      columns: [{ attribute: 'title', width: 300 }, { fieldId: due.id }],
    };
    const token = workspace.owner.token;
    const member = await addMember(t, workspace, 'member');
    const created = await t.api.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      { name: 'Board', definition, display },
      { token: member.token },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Board',
      definition,
      display,
      collectionId: list.id,
    });
    const url =
      `/workspaces/${workspace.id}/collections/${list.id}/views/${created.body.id}` as const;
    const updated = await t.http.patch(
      url,
      { definition: { sort: [{ attribute: 'title' }] } },
      { token },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.definition).toEqual({ sort: [{ attribute: 'title' }] });
    expect(updated.body.display).toEqual(display);
    const events = await allEvents(t, workspace, { type: ['view.created', 'view.updated'] });
    expect(events.map((event) => event.type)).toEqual(['view.created', 'view.updated']);
    expect(Object.keys(events[1]?.changes ?? {})).toEqual(['definition']);
    expect((await t.http.delete(url, { token })).status).toBe(204);
    expect((await t.http.get(url, { token })).status).toBe(404);
  });

  it('refuses invalid definitions with a code naming the place', async () => {
    const { workspace, stage, tags, list, due } = await setup();
    const deep = {
      and: [
        {
          and: [
            {
              and: [{ and: [{ and: [{ and: [{ attribute: 'title', op: 'eq', value: 'x' }] }] }] }],
            },
          ],
        },
      ],
    };
    const many = {
      and: Array.from({ length: 101 }, () => ({ attribute: 'title', op: 'eq', value: 'x' })),
    };
    const cases: Array<[unknown, string, string]> = [
      [{ filter: { fieldId: 'stage', op: 'eq', value: 'x' } }, 'unknown_field', '/filter/fieldId'],
      [
        { filter: { fieldId: '0190d6e2-3c4b-7def-8123-456789abcdef', op: 'eq', value: 'x' } },
        'unknown_field',
        '/filter/fieldId',
      ],
      [
        { filter: { attribute: 'color', op: 'eq', value: 'x' } },
        'unknown_attribute',
        '/filter/attribute',
      ],
      [
        { filter: { and: [{ fieldId: stage.id, op: 'contains', value: 'x' }] } },
        'invalid_operator',
        '/filter/and/0/op',
      ],
      [
        { filter: { fieldId: stage.id, op: 'eq', value: 'not-an-option' } },
        'unknown_option',
        '/filter/value',
      ],
      [{ filter: { fieldId: tags.id, op: 'hasAny', value: [] } }, 'invalid_value', '/filter/value'],
      [{ filter: { attribute: 'number', op: 'gt', value: '3' } }, 'invalid_value', '/filter/value'],
      [
        {
          filter: {
            attribute: 'statusId',
            op: 'eq',
            value: '0190d6e2-3c4b-7def-8123-456789abcdef',
          },
        },
        'unknown_status',
        '/filter/value',
      ],
      [
        { filter: { fieldId: due.id, op: 'before', value: '2026-13-40' } },
        'invalid_value',
        '/filter/value',
      ],
      [
        { filter: { fieldId: due.id, op: 'withinLast', value: { amount: 0, unit: 'days' } } },
        'invalid_value',
        '/filter/value/amount',
      ],
      [
        { filter: { attribute: 'title', op: 'isEmpty', value: 'x' } },
        'invalid_value',
        '/filter/value',
      ],
      [{ filter: deep }, 'definition_too_deep', '/filter/and/0/and/0/and/0/and/0/and/0'],
      [{ filter: many }, 'too_many_conditions', '/filter/and/100'],
      [{ sort: [{ fieldId: tags.id }] }, 'field_not_sortable', '/sort/0'],
      [{ groupBy: { attribute: 'title' } }, 'field_not_groupable', '/groupBy'],
      [
        { groupBy: { fieldId: due.id, timeZone: 'Mars/Base' } },
        'invalid_time_zone',
        '/groupBy/timeZone',
      ],
      [
        { filter: { attribute: 'title', op: 'eq', value: 'x', extra: 1 } },
        'invalid_definition',
        '/filter/extra',
      ],
      [{ limit: 5 }, 'invalid_definition', '/limit'],
    ];
    for (const [definition, code, path] of cases) {
      const response = await t.http.post(
        `/workspaces/${workspace.id}/collections/${list.id}/views`,
        { name: 'Bad', definition },
        { token: workspace.owner.token },
      );
      expect(response.status, JSON.stringify(definition)).toBe(400);
      expect(response.body.error.code, JSON.stringify(definition)).toBe(code);
      expect(response.body.error.details, JSON.stringify(definition)).toMatchObject({ path });
    }
    expect(await allEvents(t, workspace, { type: 'view.created' })).toEqual([]);
  });

  it('refuses display columns naming unknown fields, viewers, and other workspaces’ lists', async () => {
    const { workspace, list } = await setup();
    const display = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      {
        name: 'X',
        definition: {},
        display: { columns: [{ fieldId: '0190d6e2-3c4b-7def-8123-456789abcdef' }] },
      },
      { token: workspace.owner.token },
    );
    expect(display.body.error.code).toBe('unknown_field');
    const viewer = await addMember(t, workspace, 'viewer');
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/collections/${list.id}/views`,
          { name: 'X', definition: {} },
          { token: viewer.token },
        )
      ).status,
    ).toBe(403);
    const other = await createWorkspace(t);
    const foreign = await createCollection(t, other);
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/collections/${foreign.id}/views`,
          { name: 'X', definition: {} },
          { token: workspace.owner.token },
        )
      ).status,
    ).toBe(404);
  });
});
