import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const accountsMigrations: Migrations = {
  '2026_11_21_001_accounts': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table users (
          id uuid primary key,
          email text not null check (length(email) <= 254),
          name text not null,
          password_hash text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index users_email_key on users (lower(email))`.execute(db);
      await sql`
        create table sessions (
          id uuid primary key,
          user_id uuid not null references users (id) on delete cascade,
          token_hash text not null,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          revoked_at timestamptz
        )`.execute(db);
      await sql`create unique index sessions_token_hash_key on sessions (token_hash)`.execute(db);
      await sql`create index sessions_user_id_idx on sessions (user_id)`.execute(db);
    },
  },
};
