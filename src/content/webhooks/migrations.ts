import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const webhooksMigrations: Migrations = {
  '2026_11_22_301_webhooks': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table webhook_endpoints (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          url text not null,
          description text,
          event_types text[] not null,
          secret text not null,
          previous_secret text,
          previous_secret_expires_at timestamptz,
          paused_at timestamptz,
          pause_reason text check (pause_reason in ('manual', 'failures')),
          consecutive_failures integer not null default 0,
          created_by uuid references users (id) on delete set null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index webhook_endpoints_workspace_idx on webhook_endpoints (workspace_id, created_at)`.execute(
        db,
      );
      await sql`
        create table webhook_deliveries (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
          event_type text not null,
          event_id uuid,
          batch_id uuid,
          first_event_id uuid not null,
          last_event_id uuid not null,
          event_count integer not null,
          tx_id bigint not null default (pg_current_xact_id()::text::bigint),
          state text not null default 'pending' check (state in ('pending', 'succeeded', 'failed')),
          attempt_count integer not null default 0,
          attempt_limit integer not null default 6,
          next_attempt_at timestamptz not null default now(),
          last_status_code integer,
          last_error text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          completed_at timestamptz
        )`.execute(db);
      // One delivery per endpoint, batch, type and transaction: a transaction
      // that records a batch in several calls merges into one row.
      await sql`
        create unique index webhook_deliveries_batch_key
        on webhook_deliveries (endpoint_id, batch_id, event_type, tx_id)
        where batch_id is not null`.execute(db);
      await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id)`.execute(
        db,
      );
      await sql`
        create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
        where state = 'pending'`.execute(db);
      await sql`
        create table webhook_attempts (
          id uuid primary key,
          delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
          number integer not null,
          started_at timestamptz not null,
          duration_ms integer not null,
          status_code integer,
          error text,
          succeeded boolean not null
        )`.execute(db);
      await sql`create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, number)`.execute(
        db,
      );
    },
  },
};
