import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const queriesMigrations: Migrations = {
  '2026_11_22_110_views_engine': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `alter table items add column search_vector tsvector generated always as (
           setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')) stored`,
        'create index items_search_idx on items using gin (search_vector)',
        'create index items_status_count_idx on items (collection_id, status_id) where archived_at is null',
        'create index items_title_order_idx on items (collection_id, title, sort_key, id) where archived_at is null',
        'create index items_number_order_idx on items (collection_id, number) where archived_at is null',
        `create table instance_secrets (
           name text primary key,
           value text not null,
           created_at timestamptz not null default now())`,
        `create table property_indexes (
           key text not null,
           variant text not null check (variant in ('asc', 'gin')),
           state text not null check (state in ('pending', 'ready', 'failed')),
           error text,
           requested_at timestamptz not null default now(),
           built_at timestamptz,
           primary key (key, variant))`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
};
