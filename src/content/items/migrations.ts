import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const itemsMigrations: Migrations = {
  '2026_11_22_108_items': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table items (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          collection_id uuid not null references collections (id) on delete cascade,
          number bigint not null,
          title text not null,
          status_id uuid not null references statuses (id),
          parent_id uuid references items (id) on delete cascade,
          properties jsonb not null default '{}',
          blocks jsonb not null default '{"blocks": []}',
          body text not null default '',
          icon text,
          sort_key text collate "C" not null,
          archived_at timestamptz,
          created_by uuid references users (id) on delete set null,
          external_source text,
          external_id text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index items_number_key on items (workspace_id, number)`.execute(db);
      await sql`create index items_collection_order_idx on items (collection_id, sort_key, id)`.execute(
        db,
      );
      await sql`create index items_parent_idx on items (parent_id) where parent_id is not null`.execute(
        db,
      );
      await sql`
        create unique index items_external_key on items (workspace_id, external_source, external_id)
        where external_source is not null`.execute(db);
      await sql`
        create table item_collections (
          item_id uuid not null references items (id) on delete cascade,
          collection_id uuid not null references collections (id) on delete cascade,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          created_at timestamptz not null default now(),
          primary key (item_id, collection_id)
        )`.execute(db);
      await sql`create index item_collections_collection_idx on item_collections (collection_id, item_id)`.execute(
        db,
      );
    },
  },
};
