import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const collectionsMigrations: Migrations = {
  '2026_11_22_106_collections': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table collection_groups (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          name text not null,
          position integer not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index collection_groups_workspace_idx on collection_groups (workspace_id, position)`.execute(
        db,
      );
      await sql`
        create table collections (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          name text not null,
          key_prefix text not null,
          description text,
          icon text,
          field_ids uuid[] not null default '{}',
          group_id uuid references collection_groups (id) on delete set null,
          position integer not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index collections_key_prefix_key on collections (workspace_id, key_prefix)`.execute(
        db,
      );
      await sql`create index collections_workspace_idx on collections (workspace_id, position)`.execute(
        db,
      );
    },
  },
};
