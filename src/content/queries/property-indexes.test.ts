import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../../test/fixtures/database.js';
import { ownedWorkspace } from '../../../test/fixtures/workspace-access.js';
import { inTransaction } from '../../db/transaction.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import type { CreateField } from '../fields/schemas.js';
import { createField } from '../fields/service.js';
import { buildPendingPropertyIndexes } from './property-indexes.js';

const t = useDatabase();

async function indexes(): Promise<string[]> {
  const { rows } = await sql<{ indexname: string }>`
    select indexname from pg_indexes where tablename = 'items' and starts_with(indexname, 'items_prop_') order by indexname`.execute(
    t.db,
  );
  return rows.map((row) => row.indexname);
}

describe('property indexes', () => {
  it('are requested with a field and built in the background, once per key', async () => {
    const workspace = await ownedWorkspace(t.db);
    const other = await ownedWorkspace(t.db);
    // Each in a transaction of its own, as the route opens one.
    const add = (access: WorkspaceAccess, field: CreateField) =>
      inTransaction(t.db, (trx) => createField(trx, access, field));
    await add(workspace, { key: 'due', type: 'date', name: 'Due' });
    await add(workspace, { key: 'stage', type: 'select', name: 'Stage' });
    await add(workspace, { key: 'tags', type: 'multi_select', name: 'Tags' });
    await add(other, { key: 'due', type: 'date', name: 'Due too' });
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
