import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const invitationsMigrations: Migrations = {
  '2026_11_22_303_invitations': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table workspace_invitations (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          email text not null,
          role text not null check (role in ('viewer', 'member', 'admin', 'owner')),
          token_hash text not null,
          token_prefix text not null,
          created_by uuid references users (id) on delete set null,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          revoked_at timestamptz,
          accepted_at timestamptz,
          accepted_by uuid references users (id) on delete set null
        )`.execute(db);
      await sql`create unique index workspace_invitations_token_key on workspace_invitations (token_hash)`.execute(
        db,
      );
      await sql`create index workspace_invitations_workspace_idx on workspace_invitations (workspace_id, created_at)`.execute(
        db,
      );
    },
  },
};
