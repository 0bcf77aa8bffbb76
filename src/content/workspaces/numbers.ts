import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Card numbers: one sequence per workspace (`item_numbers."<workspace id>"`),
 * so concurrent writers of a workspace take numbers without waiting for
 * each other's commits. A number is never handed out twice; a rolled-back
 * write leaves a gap, as an identity column does.
 */
function sequenceName(workspaceId: string) {
  return sql.id('item_numbers', workspaceId.toLowerCase());
}

export async function createItemNumbers(db: Database, workspaceId: string): Promise<void> {
  await sql`create sequence ${sequenceName(workspaceId)}`.execute(db);
}

export async function dropItemNumbers(db: Database, workspaceId: string): Promise<void> {
  await sql`drop sequence if exists ${sequenceName(workspaceId)}`.execute(db);
}

/** The SQL of the workspace's next number, for a statement that writes a card. */
export function nextItemNumber(workspaceId: string) {
  return sql<number>`nextval(format('item_numbers.%I', ${workspaceId}::uuid::text)::regclass)`;
}

/** `count` new numbers of the workspace, increasing. */
export async function takeItemNumbers(
  db: Database,
  workspaceId: string,
  count: number,
): Promise<number[]> {
  const { rows } = await sql<{ number: number }>`
    select ${nextItemNumber(workspaceId)} as number from generate_series(1, ${count})`.execute(db);
  return rows.map((row) => Number(row.number)).sort((a, b) => a - b);
}
