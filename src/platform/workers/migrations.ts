import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const workersMigrations: Migrations = {
  '2026_11_22_402_workers': {
    async up(db: Kysely<unknown>) {
      // No action on a project or node delete: those services refuse while workers exist.
      await sql`
        create table workers (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          project_id uuid not null references projects (id),
          node_id uuid not null references nodes (id),
          user_id uuid references users (id) on delete set null,
          created_by_key_id uuid,
          name text not null check (length(name) between 1 and 100),
          branch text,
          state text not null check (state in (
            'creating', 'ready', 'stopping', 'stopped', 'starting', 'deleting', 'failed', 'lost')),
          state_reason text,
          state_changed_at timestamptz not null default now(),
          container_id text,
          image text not null,
          repositories jsonb not null default '[]',
          forward_ports jsonb not null default '[]',
          ports jsonb not null default '[]',
          checkouts jsonb not null default '[]',
          ready_at timestamptz,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index workers_project_idx on workers (project_id, created_at)`.execute(db);
      await sql`create index workers_node_idx on workers (node_id, state)`.execute(db);
    },
  },
  '2026_11_22_405_worker_ssh_tokens': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table worker_ssh_tokens (
          id uuid primary key,
          worker_id uuid not null references workers (id) on delete cascade,
          user_id uuid not null references users (id) on delete cascade,
          token_hash text not null,
          expires_at timestamptz not null,
          created_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index worker_ssh_tokens_hash_key on worker_ssh_tokens (token_hash)`.execute(
        db,
      );
      await sql`
        create index worker_ssh_tokens_expiry_idx on worker_ssh_tokens (expires_at)`.execute(db);
    },
  },
};
