import { sql } from 'kysely';
import Type, { type Static } from 'typebox';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { Strict } from '../../http/schemas.js';
import type { ItemRow } from '../items/repository.js';
import { toItem } from '../items/repository.js';
import { Item } from '../items/schemas.js';
import { cursorScope, decodeCursor, encodeCursor } from '../view-compiler/cursor.js';
import { PAGE_DEFAULT, PAGE_MAX } from './schemas.js';
import { instanceSecret } from './secret.js';

export const SearchQuery = Strict({
  q: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Words; quotes for phrases, `-` to exclude (web search syntax).',
  }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX })),
});
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchPage = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        ...Item.properties,
        rank: Type.Number({ description: 'Relevance; title words weigh more.' }),
      }),
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'SearchPage' },
);
export type SearchPage = Static<typeof SearchPage>;

/**
 * One page of matches after `after` (rank descending, id ascending): the
 * page's matches first, ranked and limited, reading only ids and vectors;
 * then the card rows, lists and attachments of those few.
 */
export function searchStatement(
  workspaceId: string,
  q: string,
  after: { rank: number; id: string } | null,
  limit: number,
) {
  const keyset =
    after === null
      ? sql`true`
      : sql`(matches.rank < ${after.rank} or (matches.rank = ${after.rank} and matches.id > cast(${after.id} as uuid)))`;
  return sql<ItemRow & { rank: number }>`${PREPARED}
    with top as (
      select matches.id, matches.rank from (
        select item_search.item_id as id, ts_rank_cd(item_search.vector, query) as rank
        from item_search, websearch_to_tsquery('simple', ${q}) as query
        where item_search.workspace_id = ${workspaceId} and item_search.active and item_search.vector @@ query
      ) as matches
      where ${keyset}
      order by matches.rank desc, matches.id asc
      limit ${sql.lit(limit)}
    )
    select items.id, items.collection_id, items.number, items.title, items.status_id, items.parent_id,
           items.properties, items.icon, items.sort_key, items.archived_at, items.created_by,
           items.external_source, items.external_id, items.created_at, items.updated_at,
           top.rank, lists.key_prefix,
           coalesce((select array_agg(extra.collection_id order by extra.created_at, extra.collection_id)
                     from item_collections extra where extra.item_id = top.id), '{}') as collection_ids
    from top join items on items.id = top.id join collections lists on lists.id = items.collection_id
    order by top.rank desc, top.id asc`;
}

/**
 * Full-text search over the titles and bodies of a workspace's active cards,
 * best matches first (ties by id), keyset-paged on (rank, id).
 */
export async function searchItems(
  db: Database,
  workspaceId: string,
  input: SearchQuery,
): Promise<SearchPage> {
  const limit = input.limit ?? PAGE_DEFAULT;
  const secret = await instanceSecret(db, 'cursor');
  const scope = cursorScope({ search: input.q, w: workspaceId });
  const after = input.cursor === undefined ? null : decodeCursor(secret, scope, input.cursor);
  const rank = typeof after?.position.values[0] === 'number' ? after.position.values[0] : null;
  if (after !== null && rank === null)
    throw badRequest('invalid_cursor', 'The cursor is not a search cursor');
  const { rows } = await searchStatement(
    workspaceId,
    input.q,
    after === null || rank === null ? null : { rank, id: after.position.id },
    limit + 1,
  ).execute(db);
  const visible = rows.slice(0, limit);
  const last = visible.at(-1);
  return {
    items: visible.map((row) => ({ ...toItem(row), rank: Number(row.rank) })),
    nextCursor:
      rows.length > limit && last !== undefined
        ? encodeCursor(secret, scope, {
            segment: 'values',
            position: { values: [Number(last.rank)], sortKey: last.sort_key, id: last.id },
          })
        : null,
  };
}
