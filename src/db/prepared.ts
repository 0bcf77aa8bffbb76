import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';

/**
 * Statements that begin with this comment run as named prepared statements
 * on PostgreSQL (their plan is made once per connection and reused), named
 * after a hash of their text so each distinct shape is prepared once. Only
 * statements whose text repeats belong here: the parameters vary, the text
 * does not (every distinct text stays prepared on each connection).
 * PGlite reads the comment as a comment.
 */
export const PREPARED = sql.raw('/* prepared */');
const MARK = '/* prepared */';

function statementName(text: string): string {
  return `p${createHash('sha1').update(text).digest('hex')}`;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes a pooled client run marked statements as named ones (`pool.on('connect')`). */
export function prepareMarkedStatements(client: pg.PoolClient): void {
  const query: Query = client.query.bind(client);
  const named: Query = (config, values, callback) =>
    typeof config === 'string' && config.startsWith(MARK) && callback === undefined
      ? query({ name: statementName(config), text: config, values })
      : query(config, values, callback);
  Object.assign(client, { query: named });
}
