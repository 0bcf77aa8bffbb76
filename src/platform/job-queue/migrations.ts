import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const jobsMigrations: Migrations = {
  '2026_11_25_401_jobs': {
    async up(db: Kysely<unknown>) {
      // A job runs on its node's agent; a deleted node takes its jobs along.
      await sql`
        create table jobs (
          id uuid primary key,
          kind text not null check (length(kind) between 1 and 64),
          node_id uuid not null references nodes (id) on delete cascade,
          target_id uuid not null,
          payload jsonb not null default '{}',
          state text not null default 'queued'
            check (state in ('queued', 'running', 'succeeded', 'failed')),
          attempts integer not null default 0,
          lease_owner text,
          lease_expires_at timestamptz,
          error text,
          created_at timestamptz not null default now(),
          started_at timestamptz,
          finished_at timestamptz
        )`.execute(db);
      await sql`
        create index jobs_open_idx on jobs (node_id, id)
          where state in ('queued', 'running')`.execute(db);
      await sql`
        create index jobs_target_open_idx on jobs (target_id, id)
          where state in ('queued', 'running')`.execute(db);
    },
  },
  '2026_11_28_703_jobs_anywhere': {
    async up(db: Kysely<unknown>) {
      // A job without a node (a deploy spans nodes) is claimed by any server process.
      await sql`alter table jobs alter column node_id drop not null`.execute(db);
      await sql`
        create index jobs_anywhere_open_idx on jobs (id)
          where node_id is null and state in ('queued', 'running')`.execute(db);
    },
  },
};
