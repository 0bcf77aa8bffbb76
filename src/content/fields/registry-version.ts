import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { REGISTRY_CHANNEL } from './registry-cache.js';

/**
 * The workspace's registry changed in a way its fields' triggers do not see
 * (a field's `item_values` rows are all filled in): its version moves on and,
 * at commit, every server reads the registry again.
 */
export async function bumpRegistryVersion(db: Database, workspaceId: string): Promise<void> {
  await sql`
    insert into registry_versions (workspace_id, version) values (${workspaceId}, 1)
    on conflict (workspace_id) do update set version = registry_versions.version + 1`.execute(db);
  await sql`select pg_notify(${REGISTRY_CHANNEL}, ${workspaceId})`.execute(db);
}
