import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const filesMigrations: Migrations = {
  '2026_11_22_104_files': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table files (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          name text not null,
          content_type text not null,
          is_image boolean not null,
          size bigint not null,
          sha256 text not null,
          storage_key text not null,
          created_by uuid references users (id) on delete set null,
          created_at timestamptz not null default now(),
          external_source text,
          external_id text
        )`.execute(db);
      await sql`create index files_workspace_idx on files (workspace_id, created_at, id)`.execute(
        db,
      );
      await sql`
        create unique index files_external_key on files (workspace_id, external_source, external_id)
        where external_source is not null`.execute(db);
    },
  },
};
