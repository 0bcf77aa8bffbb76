import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const appsMigrations: Migrations = {
  '2026_11_22_304_apps': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table oauth_apps (
          id uuid primary key,
          owner_id uuid not null references users (id) on delete cascade,
          name text not null,
          description text,
          client_id text not null,
          client_secret_hash text not null,
          redirect_uris text[] not null,
          scopes text[] not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index oauth_apps_client_id_key on oauth_apps (client_id)`.execute(db);
      await sql`create index oauth_apps_owner_idx on oauth_apps (owner_id, created_at)`.execute(db);
      await sql`
        create table app_installations (
          id uuid primary key,
          app_id uuid not null references oauth_apps (id) on delete cascade,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          installed_by uuid not null references users (id) on delete cascade,
          role text not null check (role in ('viewer', 'member', 'admin', 'owner')),
          scopes text[] not null,
          token_hash text not null,
          token_prefix text not null,
          created_at timestamptz not null default now(),
          last_used_at timestamptz,
          revoked_at timestamptz
        )`.execute(db);
      await sql`create unique index app_installations_token_key on app_installations (token_hash)`.execute(
        db,
      );
      await sql`create index app_installations_workspace_idx on app_installations (workspace_id, created_at)`.execute(
        db,
      );
      await sql`
        create table oauth_authorization_codes (
          id uuid primary key,
          code_hash text not null,
          app_id uuid not null references oauth_apps (id) on delete cascade,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          user_id uuid not null references users (id) on delete cascade,
          redirect_uri text not null,
          scopes text[] not null,
          role text not null,
          code_challenge text not null,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          consumed_at timestamptz,
          installation_id uuid references app_installations (id) on delete set null
        )`.execute(db);
      await sql`create unique index oauth_authorization_codes_code_key on oauth_authorization_codes (code_hash)`.execute(
        db,
      );
    },
  },
};
