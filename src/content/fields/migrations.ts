import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const fieldsMigrations: Migrations = {
  '2026_11_22_105_fields': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table fields (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          key text not null,
          type text not null,
          name text not null,
          config jsonb not null default '{}',
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index fields_key_key on fields (workspace_id, key)`.execute(db);
    },
  },
};
