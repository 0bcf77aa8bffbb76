import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const nodesMigrations: Migrations = {
  '2026_11_22_401_nodes': {
    async up(db: Kysely<unknown>) {
      // org_id null: the shared built-in node (LOCAL_AGENT), placed for every organization.
      await sql`
        create table nodes (
          id uuid primary key,
          org_id uuid references organizations (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          public_address text,
          token_hash text not null,
          token_prefix text not null,
          max_workers integer check (max_workers > 0),
          draining_at timestamptz,
          connected boolean not null default false,
          last_seen_at timestamptz,
          agent_version text,
          info jsonb,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index nodes_token_hash_key on nodes (token_hash)`.execute(db);
      await sql`
        create unique index nodes_org_name_key on nodes (org_id, lower(name))`.execute(db);
      await sql`
        create unique index nodes_shared_name_key on nodes (lower(name)) where org_id is null`.execute(
        db,
      );
    },
  },
};
