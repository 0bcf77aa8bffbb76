import { sql } from 'kysely';
import type { Database } from '../src/db/schema.js';

export interface SeedPlan {
  workspaceId: string;
  collectionId: string;
  createdBy: string;
  statusIds: string[];
  stageOptions: string[];
  tagOptions: string[];
  ownerIds: string[];
  count: number;
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Inserts `count` cards with set-based SQL, in chunks: a status, a select, a
 * multi-select, a number, a date and a person on each, and manual-order keys
 * `d` + four base-62 digits (valid fractional keys, increasing with n). One
 * title in a hundred holds the word `needle` (the search case).
 */
export async function seedItems(
  db: Database,
  plan: SeedPlan,
  onProgress?: (done: number) => void,
): Promise<void> {
  const chunk = 100_000;
  for (let start = 1; start <= plan.count; start += chunk) {
    const end = Math.min(plan.count, start + chunk - 1);
    await sql`
      insert into items (id, workspace_id, collection_id, number, title, status_id, properties, sort_key, created_by, body)
      select gen_random_uuid(), ${plan.workspaceId}, ${plan.collectionId}, n,
        'Card ' || n || case when n % 100 = 0 then ' needle' else '' end,
        (${plan.statusIds}::uuid[])[1 + n % ${plan.statusIds.length}],
        jsonb_build_object(
          'stage', (${plan.stageOptions}::text[])[1 + (n * 7) % ${plan.stageOptions.length}],
          'tags', case when n % 6 = (n / 6) % 6
            then jsonb_build_array((${plan.tagOptions}::text[])[1 + n % 6])
            else jsonb_build_array((${plan.tagOptions}::text[])[1 + n % 6], (${plan.tagOptions}::text[])[1 + (n / 6) % 6]) end,
          'points', (n * 37) % 101,
          'due', to_char(date '2025-01-01' + ((n * 13) % 730), 'YYYY-MM-DD'),
          'owner', (${plan.ownerIds}::text[])[1 + n % ${plan.ownerIds.length}]),
        'd' || substr(${DIGITS}, (n / 238328) % 62 + 1, 1) || substr(${DIGITS}, (n / 3844) % 62 + 1, 1)
            || substr(${DIGITS}, (n / 62) % 62 + 1, 1) || substr(${DIGITS}, n % 62 + 1, 1),
        ${plan.createdBy}, ''
      from generate_series(${start}::int, ${end}::int) as n`.execute(db);
    onProgress?.(end);
  }
  await sql`select setval(format('item_numbers.%I', ${plan.workspaceId}::uuid::text)::regclass, ${plan.count})`.execute(
    db,
  );
}
