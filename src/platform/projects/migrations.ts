import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const projectsMigrations: Migrations = {
  '2026_11_22_203_projects': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table projects (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          description text,
          repositories jsonb not null default '[]',
          features jsonb not null default '{}',
          extensions jsonb not null default '[]',
          forward_ports jsonb not null default '[]',
          version integer not null default 1,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index projects_org_name_key on projects (org_id, lower(name))`.execute(db);
      await sql`
        create table project_secrets (
          id uuid primary key,
          owner_id uuid not null references projects (id) on delete cascade,
          name text not null,
          ciphertext text not null,
          nonce text not null,
          key_id text not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index project_secrets_owner_name_key
          on project_secrets (owner_id, name)`.execute(db);
      await sql`
        create table project_versions (
          id uuid primary key,
          project_id uuid not null references projects (id) on delete cascade,
          version integer not null check (version >= 1),
          action text not null check (action in ('create', 'update', 'restore')),
          restored_from integer,
          config jsonb not null,
          created_by_user_id uuid references users (id) on delete set null,
          created_by_key_id uuid references org_api_keys (id) on delete set null,
          created_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index project_versions_project_version_key
          on project_versions (project_id, version)`.execute(db);
    },
  },
};
