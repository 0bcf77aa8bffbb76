import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const orgsMigrations: Migrations = {
  '2026_11_22_201_organizations': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table organizations (
          id uuid primary key,
          name text not null check (length(name) between 1 and 100),
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create table organization_members (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          user_id uuid not null references users (id) on delete cascade,
          role text not null check (role in ('owner', 'admin', 'member')),
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index organization_members_org_user_key
          on organization_members (org_id, user_id)`.execute(db);
      await sql`
        create index organization_members_user_idx on organization_members (user_id)`.execute(db);
    },
  },
};
