import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const viewsMigrations: Migrations = {
  '2026_11_22_107_views': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table collection_views (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          collection_id uuid not null references collections (id) on delete cascade,
          name text not null,
          definition jsonb not null,
          display jsonb not null,
          field_ids uuid[] not null default '{}',
          position integer not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index collection_views_collection_idx on collection_views (collection_id, position)`.execute(
        db,
      );
      await sql`create index collection_views_field_ids_idx on collection_views using gin (field_ids)`.execute(
        db,
      );
    },
  },
};
