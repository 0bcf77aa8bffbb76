import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * The bare SQL baseline of a card creation: the same rows a creation
 * writes (the card, with a number from the workspace's sequence, and its
 * `item.created` event) in one transaction, sent straight to PostgreSQL by
 * `connections` clients for `seconds`, with no HTTP, validation or
 * authorization. Returns transactions per second.
 */
export async function bareCreations(
  url: string,
  target: { workspaceId: string; collectionId: string; statusId: string; userId: string },
  connections: number,
  seconds: number,
): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let key = 0;
  const body = '## Notes\n\nSome **text** with a [link](https://example.com).';
  const blocks = JSON.stringify({ blocks: [] });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const id = randomUUID();
          key += 1;
          await client.query('begin');
          await client.query(
            `insert into items (id, workspace_id, collection_id, number, title, status_id, properties, blocks, body,
                                sort_key, created_by)
             values ($1, $2, $3, nextval(format('item_numbers.%I', $2::uuid::text)::regclass), 'Benchmark card', $4,
                     '{"points": 3}', $5, $6, $7, $8)`,
            [
              id,
              target.workspaceId,
              target.collectionId,
              target.statusId,
              blocks,
              body,
              `z${key}`,
              target.userId,
            ],
          );
          await client.query(
            `insert into events (id, workspace_id, occurred_at, type, resource_kind, resource_id, actor, changes, cause)
             values ($1, $2, now(), 'item.created', 'item', $3, '{"kind": "user", "label": "Bench"}',
                     '{"title": {"before": null, "after": "Benchmark card"}}', 'edit')`,
            [randomUUID(), target.workspaceId, id],
          );
          await client.query('commit');
          done += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  return Math.round((done / seconds) * 10) / 10;
}
