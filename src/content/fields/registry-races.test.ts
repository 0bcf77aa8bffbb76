import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

/**
 * A schema change racing a write that validated against the schema: one of
 * the two is refused or waits for the other, never both commit with the
 * write left pointing at what was removed. Meaningful on PostgreSQL, where
 * the requests run at once (PGlite runs one query at a time); many rounds,
 * since a race is a matter of timing.
 */
const ROUNDS = 25;

const t = useApp();
let workspace: TestWorkspace;
let listId: string;
beforeAll(async () => {
  workspace = await createWorkspace(t);
  listId = (await createCollection(t, workspace)).id;
});

function path<S extends string>(suffix: S) {
  return `/workspaces/${workspace.id}${suffix}` as const;
}

/** Cards of the workspace that still hold a value under `key`. */
async function cardsHolding(key: string): Promise<number> {
  const row = await t.db
    .selectFrom('items')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('workspace_id', '=', workspace.id)
    .where(sql<boolean>`properties ? ${key}`)
    .executeTakeFirstOrThrow();
  return row.count;
}

describe('the registry under concurrent writes', () => {
  it('deleting a field while a view filtering on it is saved: the view is refused or the deletion is', async () => {
    const token = workspace.owner.token;
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const field = await createField(t, workspace, {
        key: `v${round}`,
        type: 'number',
        name: `V ${round}`,
      });
      const [removal, view] = await Promise.all([
        t.http.delete(path(`/fields/${field.id}`), { token }),
        t.http.post(
          path(`/collections/${listId}/views`),
          {
            name: `On v${round}`,
            definition: { filter: { fieldId: field.id, op: 'gt', value: 1 } },
          },
          { token },
        ),
      ]);
      outcomes.add(`${removal.status}/${view.status}`);
      if (view.status === 201) {
        expect(removal.status).toBe(409);
        expect(removal.body).toMatchObject({ error: { code: 'field_in_use' } });
        // The saved view can be queried.
        const viewId = (view.body as { id: string }).id;
        const query = await t.http.post(
          path(`/collections/${listId}/query`),
          { definition: { filter: { fieldId: field.id, op: 'gt', value: 1 } } },
          { token },
        );
        expect(query.status).toBe(200);
        await t.http.delete(path(`/collections/${listId}/views/${viewId}`), { token });
      } else {
        expect(removal.status).toBe(204);
        expect(view.status).toBe(400);
        expect(view.body).toMatchObject({ error: { code: 'unknown_field' } });
      }
    }
    expect([...outcomes].every((o) => o === '409/201' || o === '204/400')).toBe(true);
  });

  it('deleting a field while cards are written with its key: no card keeps the key', async () => {
    const token = workspace.owner.token;
    const card = await createItem(t, workspace, listId, { title: 'Edited in the race' });
    for (let round = 0; round < ROUNDS; round++) {
      const key = `k${round}`;
      const field = await createField(t, workspace, { key, type: 'text', name: `K ${round}` });
      const [removal, created, patched] = await Promise.all([
        t.http.delete(path(`/fields/${field.id}`), { token }),
        t.http.post(
          path(`/collections/${listId}/items`),
          { title: `Card ${round}`, properties: { [key]: 'value' } },
          { token },
        ),
        t.http.patch(path(`/items/${card.id}`), { properties: { [key]: 'value' } }, { token }),
      ]);
      expect(removal.status).toBe(204);
      for (const write of [created, patched]) {
        expect([200, 201, 400]).toContain(write.status);
        if (write.status === 400) {
          expect(write.body).toMatchObject({ error: { code: 'unknown_property' } });
        }
      }
      expect(await cardsHolding(key)).toBe(0);
    }
    // A later field of another type reusing a key finds no stale value under it.
    const reused = await createField(t, workspace, { key: 'k0', type: 'number', name: 'Reused' });
    const read = await t.http.get(path(`/items/${card.id}`), { token });
    expect(read.body.properties).not.toHaveProperty(reused.key);
  });

  it('removing a select option while cards are written with it: no card keeps the option', async () => {
    const token = workspace.owner.token;
    const card = await createItem(t, workspace, listId, { title: 'Tagged in the race' });
    for (let round = 0; round < ROUNDS; round++) {
      const key = `s${round}`;
      const field = await createField(t, workspace, {
        key,
        type: 'select',
        name: `S ${round}`,
        config: {
          options: [
            { label: 'Kept', color: '#00aa00' },
            { label: 'Removed', color: '#aa0000' },
          ],
        },
      });
      const [kept, removed] = field.config.options ?? [];
      if (kept === undefined || removed === undefined) throw new Error('options missing');
      const [removal, created, patched] = await Promise.all([
        t.http.patch(
          path(`/fields/${field.id}`),
          { config: { options: [{ id: kept.id, label: kept.label, color: kept.color }] } },
          { token },
        ),
        t.http.post(
          path(`/collections/${listId}/items`),
          { title: `Card ${round}`, properties: { [key]: removed.id } },
          { token },
        ),
        t.http.patch(path(`/items/${card.id}`), { properties: { [key]: removed.id } }, { token }),
      ]);
      expect(removal.status).toBe(200);
      for (const write of [created, patched]) {
        expect([200, 201, 400]).toContain(write.status);
        if (write.status === 400) {
          expect(write.body).toMatchObject({ error: { code: 'option_not_declared' } });
        }
      }
      expect(await cardsHolding(key)).toBe(0);
    }
  });
});
