import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const apiKeysMigrations: Migrations = {
  '2026_11_22_202_org_api_keys': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table org_api_keys (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          owner_type text not null check (owner_type in ('user', 'org')),
          created_by uuid references users (id) on delete set null,
          member_id uuid references organization_members (id) on delete set null,
          scopes text[] not null,
          token_hash text not null,
          token_prefix text not null,
          created_at timestamptz not null default now(),
          last_used_at timestamptz,
          revoked_at timestamptz
        )`.execute(db);
      await sql`
        create unique index org_api_keys_token_hash_key on org_api_keys (token_hash)`.execute(db);
      await sql`
        create index org_api_keys_org_idx on org_api_keys (org_id, created_at)`.execute(db);
    },
  },
};
