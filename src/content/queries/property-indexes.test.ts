import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { createField, createWorkspace } from '../../../test/helpers/factories.js';
import { buildPendingPropertyIndexes } from './property-indexes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function indexes(): Promise<string[]> {
  const { rows } = await sql<{ indexname: string }>`
    select indexname from pg_indexes where tablename = 'items' and starts_with(indexname, 'items_prop_') order by indexname`.execute(
    t.db,
  );
  return rows.map((row) => row.indexname);
}

describe('property indexes', () => {
  it('are requested with a field and built in the background, once per key', async () => {
    const workspace = await createWorkspace(t);
    const other = await createWorkspace(t);
    await createField(t, workspace, { key: 'due', type: 'date', name: 'Due' });
    await createField(t, workspace, { key: 'stage', type: 'select', name: 'Stage' });
    await createField(t, workspace, { key: 'tags', type: 'multi_select', name: 'Tags' });
    await createField(t, other, { key: 'due', type: 'date', name: 'Due too' });
    const pending = await t.db
      .selectFrom('property_indexes')
      .select(['key', 'variant', 'state'])
      .orderBy('key')
      .orderBy('variant')
      .execute();
    expect(pending).toEqual([
      { key: 'due', variant: 'asc', state: 'pending' },
      { key: 'stage', variant: 'asc', state: 'pending' },
      { key: 'tags', variant: 'gin', state: 'pending' },
    ]);
    expect(await buildPendingPropertyIndexes(t.db)).toBe(3);
    expect(await indexes()).toEqual([
      'items_prop_due_asc',
      'items_prop_stage_asc',
      'items_prop_tags_gin',
    ]);
    expect(await buildPendingPropertyIndexes(t.db)).toBe(0);
    const states = await t.db.selectFrom('property_indexes').select('state').execute();
    expect(states.every((row) => row.state === 'ready')).toBe(true);
    const { rows } = await sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes
      where indexname in ('items_prop_due_asc', 'items_prop_tags_gin') order by indexname`.execute(
      t.db,
    );
    expect(rows[0]?.definition).toMatch(
      /\(collection_id, \(\(properties -> 'due'::text\)\), sort_key, id\)$/,
    );
    expect(rows[1]?.definition).toMatch(
      /USING gin \(\(\(properties -> 'tags'::text\)\) jsonb_path_ops\)$/,
    );
  });
});
