import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const statusesMigrations: Migrations = {
  '2026_11_22_103_statuses': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table statuses (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          name text not null,
          color text not null,
          category text not null
            check (category in ('backlog', 'unstarted', 'started', 'completed', 'canceled')),
          position integer not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index statuses_name_key on statuses (workspace_id, lower(name))`.execute(
        db,
      );
      await sql`create index statuses_workspace_idx on statuses (workspace_id, position)`.execute(
        db,
      );
    },
  },
};
