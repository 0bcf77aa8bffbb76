import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { STATUS_CATEGORIES } from '../statuses/schemas.js';
import type { WorkspaceOverview } from './schemas.js';

export const ACTIVITY_DAYS = 14;

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/**
 * The workspace at a glance, in three queries whatever the number of lists:
 * cards per list; cards per status category with the catalog counts; events
 * per day over the last 14 days. A reporting read across the content tables.
 */
export async function workspaceOverview(
  db: Database,
  workspaceId: string,
  timeZone: string,
): Promise<WorkspaceOverview> {
  const lists = await db
    .selectFrom('collections')
    .leftJoin('items', (join) =>
      join.onRef('items.collection_id', '=', 'collections.id').on('items.archived_at', 'is', null),
    )
    .select([
      'collections.id',
      'collections.name',
      'collections.key_prefix',
      sql<number>`count(items.id)::int`.as('cards'),
    ])
    .where('collections.workspace_id', '=', workspaceId)
    .groupBy('collections.id')
    .orderBy('collections.position')
    .orderBy('collections.created_at')
    .orderBy('collections.id')
    .execute();

  const { rows: totals } = await sql<{
    categories: Record<string, number> | null;
    fields: number;
    statuses: number;
    views: number;
    members: number;
    items: number;
    archived_items: number;
    files: number;
  }>`
    select
      (select jsonb_object_agg(category, cards) from (
        select statuses.category, count(*)::int as cards
        from items join statuses on statuses.id = items.status_id
        where items.workspace_id = ${workspaceId} and items.archived_at is null
        group by statuses.category) per_category) as categories,
      (select count(*)::int from fields where workspace_id = ${workspaceId}) as fields,
      (select count(*)::int from statuses where workspace_id = ${workspaceId}) as statuses,
      (select count(*)::int from collection_views where workspace_id = ${workspaceId}) as views,
      (select count(*)::int from workspace_members where workspace_id = ${workspaceId}) as members,
      (select count(*)::int from items where workspace_id = ${workspaceId} and archived_at is null) as items,
      (select count(*)::int from items where workspace_id = ${workspaceId} and archived_at is not null) as archived_items,
      (select count(*)::int from files where workspace_id = ${workspaceId}) as files`.execute(db);

  const now = new Date();
  const since = new Date(now.getTime() - (ACTIVITY_DAYS + 1) * 24 * 3600 * 1000);
  const { rows: activity } = await sql<{ day: string; events: number }>`
    select to_char(occurred_at at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as events
    from events
    where workspace_id = ${workspaceId} and occurred_at >= ${since}
    group by day`.execute(db);

  const total = totals[0];
  const perDay = new Map(activity.map((row) => [row.day, row.events]));
  const days = Array.from({ length: ACTIVITY_DAYS }, (_, index) =>
    dayIn(new Date(now.getTime() - (ACTIVITY_DAYS - 1 - index) * 24 * 3600 * 1000), timeZone),
  );
  return {
    cardsByCategory: Object.fromEntries(
      STATUS_CATEGORIES.map((category) => [category, total?.categories?.[category] ?? 0]),
    ) as WorkspaceOverview['cardsByCategory'],
    cardsByCollection: lists.map((list) => ({
      collectionId: list.id,
      name: list.name,
      keyPrefix: list.key_prefix,
      cards: list.cards,
    })),
    activity: days.map((date) => ({ date, events: perDay.get(date) ?? 0 })),
    catalog: {
      collections: lists.length,
      fields: total?.fields ?? 0,
      statuses: total?.statuses ?? 0,
      views: total?.views ?? 0,
      members: total?.members ?? 0,
      items: total?.items ?? 0,
      archivedItems: total?.archived_items ?? 0,
      files: total?.files ?? 0,
    },
  };
}
