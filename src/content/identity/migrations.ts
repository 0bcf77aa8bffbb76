import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const identityMigrations: Migrations = {
  '2026_11_22_305_user_identities': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table user_identities (
          id uuid primary key,
          user_id uuid not null references users (id) on delete cascade,
          issuer text not null,
          subject text not null,
          email text,
          created_at timestamptz not null default now(),
          last_used_at timestamptz
        )`.execute(db);
      await sql`create unique index user_identities_subject_key on user_identities (issuer, subject)`.execute(
        db,
      );
      await sql`create unique index user_identities_user_key on user_identities (user_id, issuer)`.execute(
        db,
      );
      await sql`
        create table idp_login_states (
          id uuid primary key,
          state_hash text not null,
          code_verifier text not null,
          nonce text not null,
          invitation text,
          return_to text not null,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null
        )`.execute(db);
      await sql`create unique index idp_login_states_state_key on idp_login_states (state_hash)`.execute(
        db,
      );
    },
  },
};
