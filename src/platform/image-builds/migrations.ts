import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const imageBuildsMigrations: Migrations = {
  '2026_11_22_403_image_builds': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table image_builds (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          project_id uuid not null references projects (id) on delete cascade,
          node_id uuid not null references nodes (id) on delete cascade,
          project_version integer not null,
          base_image text not null,
          image text not null,
          status text not null check (status in ('queued', 'running', 'succeeded', 'failed')),
          steps jsonb not null default '[]',
          log text not null default '',
          error text,
          created_by uuid references users (id) on delete set null,
          created_at timestamptz not null default now(),
          started_at timestamptz,
          finished_at timestamptz
        )`.execute(db);
      await sql`
        create index image_builds_project_idx on image_builds (project_id, created_at)`.execute(db);
      await sql`
        create index image_builds_current_idx
          on image_builds (project_id, node_id, project_version) where status = 'succeeded'`.execute(
        db,
      );
    },
  },
};
