import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { bumpRegistryVersion } from '../fields/registry-version.js';

const BATCH = 5000;

/**
 * Fills the `item_values` rows of fields added to workspaces that already
 * had cards, one short transaction per batch of cards (by id), so that no
 * writer waits long. Each batch first locks its cards `FOR SHARE` (waiting
 * for writers of those cards, holding new ones back until it commits) and
 * then, in a second statement that sees what they committed, inserts the
 * rows the cards call for and do not have yet. When the last batch is done
 * the field leaves the queue and the workspace's registry version moves on,
 * so counts switch to the narrow table for it. Returns the batches run.
 */
export async function backfillItemValues(db: Database, batch = BATCH): Promise<number> {
  let batches = 0;
  for (;;) {
    const progressed = await db.transaction().execute(async (tx) => {
      const job = await tx
        .selectFrom('item_value_backfills')
        .select(['field_id', 'workspace_id', 'after_id'])
        .orderBy('requested_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (job === undefined) return false;
      const { rows } = await sql<{ id: string }>`
        select id from items
        where workspace_id = ${job.workspace_id} and id > coalesce(cast(${job.after_id} as uuid), cast('00000000-0000-0000-0000-000000000000' as uuid))
        order by id limit ${sql.lit(batch)}
        for share`.execute(tx);
      const last = rows.at(-1)?.id;
      if (last === undefined) {
        await tx.deleteFrom('item_value_backfills').where('field_id', '=', job.field_id).execute();
        await bumpRegistryVersion(tx, job.workspace_id);
        return true;
      }
      await sql`
        insert into item_values (item_id, collection_id, field_id, value)
        select items.id, items.collection_id, v.field_id, v.value
        from items cross join lateral item_value_rows(items.workspace_id, items.properties) as v
        where items.id = any(cast(${rows.map((row) => row.id)} as uuid[])) and items.archived_at is null
          and v.field_id = ${job.field_id}
          and not exists (select 1 from item_values had
                          where had.item_id = items.id and had.field_id = ${job.field_id})`.execute(
        tx,
      );
      await tx
        .updateTable('item_value_backfills')
        .set({ after_id: last })
        .where('field_id', '=', job.field_id)
        .execute();
      return true;
    });
    if (!progressed) return batches;
    batches += 1;
  }
}
