import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const workspacesMigrations: Migrations = {
  '2026_11_22_101_workspaces': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table workspaces (
          id uuid primary key,
          name text not null,
          slug text not null,
          cover_layout text not null default 'none',
          item_counter bigint not null default 0,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index workspaces_slug_key on workspaces (slug)`.execute(db);
      await sql`
        create table workspace_members (
          workspace_id uuid not null references workspaces (id) on delete cascade,
          user_id uuid not null references users (id) on delete cascade,
          role text not null check (role in ('viewer', 'member', 'admin', 'owner')),
          avatar_file_id uuid,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          primary key (workspace_id, user_id)
        )`.execute(db);
      await sql`create index workspace_members_user_idx on workspace_members (user_id)`.execute(db);
    },
  },
  '2026_11_25_101_item_number_sequences': {
    async up(db: Kysely<unknown>) {
      // A sequence per workspace replaces the counter row, whose lock made
      // every card creation of a workspace wait for the previous one's commit.
      await sql`create schema item_numbers`.execute(db);
      await sql`
        do $$
        declare workspace record;
        begin
          for workspace in select id, item_counter from workspaces loop
            execute format('create sequence item_numbers.%I start %s', workspace.id::text, workspace.item_counter + 1);
          end loop;
        end $$`.execute(db);
      await sql`alter table workspaces drop column item_counter`.execute(db);
    },
  },
};
