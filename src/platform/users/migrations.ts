import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const usersMigrations: Migrations = {
  '2026_11_22_204_user_settings': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table user_settings (
          user_id uuid primary key references users (id) on delete cascade,
          dotfiles_repo text,
          extensions jsonb not null default '[]',
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create table user_secrets (
          id uuid primary key,
          owner_id uuid not null references users (id) on delete cascade,
          name text not null,
          ciphertext text not null,
          nonce text not null,
          key_id text not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index user_secrets_owner_name_key on user_secrets (owner_id, name)`.execute(
        db,
      );
    },
  },
};
