import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

function secretsTable(name: string, owner: string) {
  return sql`
    create table ${sql.id(name)} (
      id uuid primary key,
      owner_id uuid not null references ${sql.id(owner)} (id) on delete cascade,
      name text not null,
      ciphertext text not null,
      nonce text not null,
      key_id text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (owner_id, name)
    )`;
}

// Frozen: a migration never changes once released, and never imports application code.
export const deploymentsMigrations: Migrations = {
  '2026_11_25_601_deployments': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table deployments (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          description text,
          env jsonb not null default '{}',
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index deployments_org_name_key on deployments (org_id, lower(name))`.execute(
        db,
      );
      await secretsTable('deployment_secrets', 'deployments').execute(db);
      await sql`
        create table services (
          id uuid primary key,
          org_id uuid not null references organizations (id) on delete cascade,
          deployment_id uuid not null references deployments (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          source jsonb not null,
          command text,
          port integer check (port between 1 and 65535),
          env jsonb not null default '{}',
          replicas integer not null default 1 check (replicas between 1 and 10),
          health_check jsonb,
          access_control text not null default 'public' check (access_control in ('public', 'private')),
          allowlist jsonb not null default '[]',
          custom_domain jsonb,
          pre_deploy jsonb,
          cron_jobs jsonb not null default '[]',
          state text not null default 'stopped'
            check (state in ('stopped', 'deploying', 'running', 'stopping', 'failed')),
          state_reason text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`
        create unique index services_deployment_name_key on services (deployment_id, lower(name))`.execute(
        db,
      );
      await sql`create index services_org_idx on services (org_id, lower(name))`.execute(db);
      await sql`
        create unique index services_custom_domain_key on services (lower(custom_domain ->> 'name'))
          where custom_domain is not null`.execute(db);
      await secretsTable('service_secrets', 'services').execute(db);
    },
  },
  '2026_11_28_702_service_replicas': {
    async up(db: Kysely<unknown>) {
      // The deploy serving traffic, and the containers of every deploy still alive.
      await sql`alter table services add column active_run_id uuid references job_runs (id) on delete set null`.execute(
        db,
      );
      await sql`
        create table service_replicas (
          id uuid primary key,
          service_id uuid not null references services (id) on delete cascade,
          run_id uuid not null references job_runs (id) on delete cascade,
          node_id uuid not null references nodes (id) on delete cascade,
          container_name text not null unique,
          port integer,
          state text not null default 'starting'
            check (state in ('starting', 'active', 'draining', 'stopped')),
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index service_replicas_service_idx on service_replicas (service_id, state)`.execute(
        db,
      );
      await sql`create index service_replicas_node_idx on service_replicas (node_id)`.execute(db);
    },
  },
  '2026_11_28_870_container_removals': {
    async up(db: Kysely<unknown>) {
      // Containers to remove, kept until their node's agent confirms it: a removal that failed
      // (the agent was away) is retried, never forgotten. `job_id`: not while that job runs.
      await sql`
        create table container_removals (
          node_id uuid not null references nodes (id) on delete cascade,
          container_name text not null,
          job_id uuid,
          attempts integer not null default 0,
          last_error text,
          created_at timestamptz not null default now(),
          primary key (node_id, container_name)
        )`.execute(db);
    },
  },
};
