import { sql } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';

/**
 * An organization's access version (`access_versions`), read fresh: a
 * cached grant is trusted only when it was made at this version. Triggers
 * bump it in the transaction of every change that can take access away,
 * so once that change has committed, every server reads the new version on
 * its next request, whether or not its notification has arrived.
 */
export async function accessVersion(db: Database, orgId: string): Promise<number> {
  const { rows } = await sql<{ version: string | number }>`${PREPARED}
    select version from access_versions where org_id = ${orgId}`.execute(db);
  return Number(rows[0]?.version ?? 0);
}
