import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const importsMigrations: Migrations = {
  '2026_11_22_302_imports': {
    async up(db: Kysely<unknown>) {
      await sql`alter table collections add column external_source text, add column external_id text`.execute(
        db,
      );
      await sql`
        create unique index collections_external_key on collections (workspace_id, external_source, external_id)
        where external_source is not null`.execute(db);
      await sql`
        create table import_batches (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          created_by uuid references users (id) on delete set null,
          requests integer not null default 0,
          created_at timestamptz not null default now(),
          last_used_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index import_batches_workspace_idx on import_batches (workspace_id, created_at)`.execute(
        db,
      );
    },
  },
};
