import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const apiKeysMigrations: Migrations = {
  '2026_11_22_109_workspace_api_keys': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table workspace_api_keys (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          name text not null,
          role text not null check (role in ('viewer', 'member', 'admin', 'owner')),
          token_hash text not null,
          token_prefix text not null,
          created_by uuid not null references users (id) on delete cascade,
          created_at timestamptz not null default now(),
          last_used_at timestamptz,
          revoked_at timestamptz
        )`.execute(db);
      await sql`create unique index workspace_api_keys_token_key on workspace_api_keys (token_hash)`.execute(
        db,
      );
      await sql`create index workspace_api_keys_workspace_idx on workspace_api_keys (workspace_id, created_at)`.execute(
        db,
      );
    },
  },
};
