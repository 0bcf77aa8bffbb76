import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../../test/fixtures/workspace.js';
import {
  allEvents,
  createCollection,
  createField,
  createItem,
  createWorkspace,
  selectOptions,
} from '../../../test/helpers/factories.js';

const t = useApp();

describe('creating fields', () => {
  it('creates every type with its config and logs it', async () => {
    const workspace = await createWorkspace(t);
    const types = [
      'text',
      'number',
      'select',
      'multi_select',
      'person',
      'multi_person',
      'date',
      'checkbox',
      'url',
      'email',
      'file',
    ];
    for (const type of types) {
      const field = await createField(t, workspace, { key: `f_${type}`, type, name: type });
      expect(field.type).toBe(type);
    }
    const select = await createField(t, workspace, {
      key: 'priority',
      type: 'select',
      name: 'Priority',
      config: {
        options: [
          { label: 'High', color: '#FF0000' },
          { label: 'Low', color: '#00ff00' },
        ],
      },
    });
    expect(select.config.options).toEqual([
      { id: expect.any(String), label: 'High', color: '#ff0000' },
      { id: expect.any(String), label: 'Low', color: '#00ff00' },
    ]);
    const number = await createField(t, workspace, {
      key: 'estimate',
      type: 'number',
      name: 'Estimate',
      config: { decimals: 1 },
    });
    expect(number.config).toEqual({ decimals: 1 });
    const list = await t.api.get(`/workspaces/${workspace.id}/fields`, {
      token: workspace.owner.token,
    });
    expect(list.body).toHaveLength(types.length + 2);
    const events = await allEvents(t, workspace, { type: 'field.created' });
    expect(events).toHaveLength(types.length + 2);
    expect(events.at(-1)?.changes).toMatchObject({
      key: { before: null, after: 'estimate' },
      type: { before: null, after: 'number' },
    });
  });

  it('refuses invalid keys, taken keys, bad types and config of another type with 400', async () => {
    const workspace = await createWorkspace(t);
    await createField(t, workspace, { key: 'taken', type: 'text', name: 'Taken' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ key: 'Bad-Key', type: 'text', name: 'x' }, 'validation_failed'],
      [{ key: '1abc', type: 'text', name: 'x' }, 'validation_failed'],
      [{ key: 'a'.repeat(41), type: 'text', name: 'x' }, 'validation_failed'],
      [{ key: 'taken', type: 'number', name: 'x' }, 'key_taken'],
      [{ key: 'kind', type: 'rating', name: 'x' }, 'validation_failed'],
      [{ key: 'opts', type: 'text', name: 'x', config: { options: [] } }, 'invalid_config'],
      [{ key: 'dec', type: 'select', name: 'x', config: { decimals: 2 } }, 'invalid_config'],
      [
        {
          key: 'dup',
          type: 'select',
          name: 'x',
          config: {
            options: [
              { label: 'A', color: '#000000' },
              { label: 'a', color: '#111111' },
            ],
          },
        },
        'duplicate_option',
      ],
      [
        {
          key: 'col',
          type: 'select',
          name: 'x',
          config: { options: [{ label: 'A', color: 'blue' }] },
        },
        'validation_failed',
      ],
    ];
    for (const [body, code] of cases) {
      const response = await t.http.post(`/workspaces/${workspace.id}/fields`, body, {
        token: workspace.owner.token,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code, JSON.stringify(body)).toBe(code);
    }
  });

  it('needs admin', async () => {
    const { workspace, member } = await workspaceWithMembers(t, ['member']);
    const response = await t.http.post(
      `/workspaces/${workspace.id}/fields`,
      { key: 'x', type: 'text', name: 'x' },
      { token: member.token },
    );
    expect(response.status).toBe(403);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/fields`, { token: member.token })).status,
    ).toBe(200);
  });
});

describe('updating fields', () => {
  it('renames and reconfigures, never changes key or type', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 'size', type: 'number', name: 'Size' });
    const response = await t.http.patch(
      `/workspaces/${workspace.id}/fields/${field.id}`,
      { name: 'Story points', config: { decimals: 0 } },
      { token: workspace.owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      key: 'size',
      type: 'number',
      name: 'Story points',
      config: { decimals: 0 },
    });
    for (const body of [{ key: 'other' }, { type: 'text' }]) {
      expect(
        (
          await t.http.patch(`/workspaces/${workspace.id}/fields/${field.id}`, body, {
            token: workspace.owner.token,
          })
        ).status,
      ).toBe(400);
    }
  });

  it('removes dropped options from items and logs it under one batch', async () => {
    const workspace = await createWorkspace(t);
    const tags = await createField(t, workspace, {
      key: 'tags',
      type: 'multi_select',
      name: 'Tags',
      config: selectOptions('a', 'b'),
    });
    const stage = await createField(t, workspace, {
      key: 'stage',
      type: 'select',
      name: 'Stage',
      config: selectOptions('x', 'y'),
    });
    const [a, b] = tags.config.options ?? [];
    const [x, y] = stage.config.options ?? [];
    const list = await createCollection(t, workspace);
    const one = await createItem(t, workspace, list.id, {
      properties: { tags: [a?.id, b?.id], stage: x?.id },
    });
    const two = await createItem(t, workspace, list.id, {
      properties: { tags: [a?.id], stage: y?.id },
    });
    const token = workspace.owner.token;
    await t.http.patch(
      `/workspaces/${workspace.id}/fields/${tags.id}`,
      { config: { options: [{ id: b?.id, label: 'b', color: '#000000' }] } },
      { token },
    );
    await t.http.patch(
      `/workspaces/${workspace.id}/fields/${stage.id}`,
      { config: { options: [{ id: y?.id, label: 'y', color: '#000000' }] } },
      { token },
    );
    const after1 = await t.http.get(`/workspaces/${workspace.id}/items/${one.id}`, { token });
    const after2 = await t.http.get(`/workspaces/${workspace.id}/items/${two.id}`, { token });
    expect(after1.body.properties).toEqual({ tags: [b?.id] });
    expect(after2.body.properties).toEqual({ stage: y?.id });
    const updates = await allEvents(t, workspace, { type: 'item.updated' });
    expect(updates.map((event) => event.changes)).toEqual([
      { 'properties.tags': { before: [a?.id, b?.id], after: [b?.id] } },
      { 'properties.tags': { before: [a?.id], after: null } },
      { 'properties.stage': { before: x?.id, after: null } },
    ]);
    expect(updates[0]?.batchId).not.toBeNull();
  });

  it('refuses an option id the field does not have', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 's', type: 'select', name: 'S' });
    const response = await t.http.patch(
      `/workspaces/${workspace.id}/fields/${field.id}`,
      { config: { options: [{ id: 'made-up', label: 'x', color: '#000000' }] } },
      { token: workspace.owner.token },
    );
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('unknown_option');
  });
});

describe('option upsert', () => {
  it('appends, recolors, and writes nothing for an identical option', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 'color', type: 'select', name: 'Color' });
    const url = `/workspaces/${workspace.id}/fields/${field.id}/options` as const;
    const token = workspace.owner.token;
    const added = await t.http.post(url, { label: 'Red', color: '#ff0000' }, { token });
    expect(added.status).toBe(200);
    expect(added.body.config.options).toEqual([
      { id: expect.any(String), label: 'Red', color: '#ff0000' },
    ]);
    const id = added.body.config.options?.[0]?.id;
    // Named by its label in another case: recolored, its label kept as stored.
    const recolored = await t.http.post(url, { label: 'red', color: '#aa0000' }, { token });
    expect(recolored.body.config.options).toEqual([{ id, label: 'Red', color: '#aa0000' }]);
    const eventsBefore = await allEvents(t, workspace, { type: 'field.updated' });
    expect(eventsBefore).toHaveLength(2);
    for (const label of ['Red', 'RED', ' red ']) {
      const same = await t.http.post(url, { label, color: '#AA0000' }, { token });
      expect(same.status).toBe(200);
      expect(same.body.config.options).toEqual([{ id, label: 'Red', color: '#aa0000' }]);
      expect(same.body.updatedAt).toBe(recolored.body.updatedAt);
    }
    expect(await allEvents(t, workspace, { type: 'field.updated' })).toHaveLength(2);
    // Named by its id, it can be renamed.
    const renamed = await t.http.post(url, { id, label: 'Crimson', color: '#aa0000' }, { token });
    expect(renamed.body.config.options).toEqual([{ id, label: 'Crimson', color: '#aa0000' }]);
    expect(await allEvents(t, workspace, { type: 'field.updated' })).toHaveLength(3);
  });

  it('lands 20 concurrent additions', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, {
      key: 'labels',
      type: 'multi_select',
      name: 'Labels',
    });
    const url = `/workspaces/${workspace.id}/fields/${field.id}/options`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        t.http.post(
          url,
          { label: `L${index}`, color: '#123456' },
          { token: workspace.owner.token },
        ),
      ),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const final = await t.http.get(`/workspaces/${workspace.id}/fields/${field.id}`, {
      token: workspace.owner.token,
    });
    expect(final.body.config.options?.map((option) => option.label).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `L${index}`).sort(),
    );
    expect(await allEvents(t, workspace, { type: 'field.updated' })).toHaveLength(20);
  });

  it('refuses fields without options and the 201st option', async () => {
    const workspace = await createWorkspace(t);
    const text = await createField(t, workspace, { key: 'notes', type: 'text', name: 'Notes' });
    const refused = await t.http.post(
      `/workspaces/${workspace.id}/fields/${text.id}/options`,
      { label: 'x', color: '#000000' },
      { token: workspace.owner.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('field_has_no_options');
    const options = Array.from({ length: 200 }, (_, index) => ({
      label: `O${index}`,
      color: '#000000',
    }));
    const full = await createField(t, workspace, {
      key: 'full',
      type: 'select',
      name: 'Full',
      config: { options },
    });
    const over = await t.http.post(
      `/workspaces/${workspace.id}/fields/${full.id}/options`,
      { label: 'one more', color: '#000000' },
      { token: workspace.owner.token },
    );
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('too_many_options');
    const recolor = await t.http.post(
      `/workspaces/${workspace.id}/fields/${full.id}/options`,
      { label: 'O5', color: '#ffffff' },
      { token: workspace.owner.token },
    );
    expect(recolor.status).toBe(200);
    const tooMany = await t.http.post(
      `/workspaces/${workspace.id}/fields`,
      {
        key: 'over',
        type: 'select',
        name: 'Over',
        config: { options: [...options, { label: 'x', color: '#000000' }] },
      },
      { token: workspace.owner.token },
    );
    expect(tooMany.status).toBe(400);
  });
});

describe('deleting fields', () => {
  it('answers 409 while a saved view uses the field', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 'score', type: 'number', name: 'Score' });
    const list = await createCollection(t, workspace);
    const view = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/views`,
      { name: 'Top', definition: { sort: [{ fieldId: field.id, direction: 'desc' }] } },
      { token: workspace.owner.token },
    );
    expect(view.status).toBe(201);
    const refused = await t.http.delete(`/workspaces/${workspace.id}/fields/${field.id}`, {
      token: workspace.owner.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'field_in_use',
      details: {
        viewIds: [view.body.id],
        views: [
          { id: view.body.id, name: 'Top', collectionId: list.id, collectionName: list.name },
        ],
      },
    });
  });

  it('removes the key from every item and the id from every list, logged under one batch', async () => {
    const workspace = await createWorkspace(t);
    const field = await createField(t, workspace, { key: 'score', type: 'number', name: 'Score' });
    const keep = await createField(t, workspace, { key: 'note', type: 'text', name: 'Note' });
    const list = await createCollection(t, workspace, { fieldIds: [field.id, keep.id] });
    const item = await createItem(t, workspace, list.id, { properties: { score: 3, note: 'x' } });
    const token = workspace.owner.token;
    expect(
      (await t.http.delete(`/workspaces/${workspace.id}/fields/${field.id}`, { token })).status,
    ).toBe(204);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/items/${item.id}`, { token })).body.properties,
    ).toEqual({ note: 'x' });
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/collections/${list.id}`, { token })).body
        .fieldIds,
    ).toEqual([keep.id]);
    const events = (await allEvents(t, workspace)).slice(-3);
    expect(events.map((event) => event.type)).toEqual([
      'item.updated',
      'collection.updated',
      'field.deleted',
    ]);
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
    expect(events[0]?.changes).toEqual({ 'properties.score': { before: 3, after: null } });
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/fields/${field.id}`, { token })).status,
    ).toBe(404);
  });
});
