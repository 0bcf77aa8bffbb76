import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const jobRunsMigrations: Migrations = {
  '2026_11_28_701_job_runs': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table job_runs (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          deployment_id uuid not null references deployments (id) on delete cascade,
          service_id uuid not null references services (id) on delete cascade,
          kind text not null check (kind in ('deploy', 'pre_deploy', 'cron')),
          job_name text,
          parent_id uuid references job_runs (id) on delete cascade,
          status text not null default 'queued'
            check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
          reason text,
          exit_code integer,
          image text,
          scheduled_at timestamptz,
          output_bytes integer not null default 0,
          output_truncated boolean not null default false,
          created_at timestamptz not null default now(),
          started_at timestamptz,
          ended_at timestamptz
        )`.execute(db);
      await sql`create index job_runs_service_idx on job_runs (service_id, created_at desc, id desc)`.execute(
        db,
      );
      await sql`
        create index job_runs_deployment_idx on job_runs (deployment_id, created_at desc, id desc)`.execute(
        db,
      );
      await sql`
        create unique index job_runs_cron_tick_key on job_runs (service_id, job_name, scheduled_at)
          where kind = 'cron'`.execute(db);
      await sql`
        create table job_run_output (
          run_id uuid not null references job_runs (id) on delete cascade,
          seq integer not null,
          data bytea not null,
          created_at timestamptz not null default now(),
          primary key (run_id, seq)
        )`.execute(db);
    },
  },
};
