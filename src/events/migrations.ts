import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const eventsMigrations: Migrations = {
  '2026_11_22_102_events': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table events (
          id uuid primary key,
          workspace_id uuid not null,
          occurred_at timestamptz not null,
          type text not null,
          resource_kind text not null,
          resource_id uuid not null,
          actor jsonb not null,
          changes jsonb not null,
          batch_id uuid,
          cause text not null check (cause in ('edit', 'import'))
        )`.execute(db);
      await sql`create index events_workspace_idx on events (workspace_id, id)`.execute(db);
      await sql`
        create index events_batch_idx on events (workspace_id, batch_id, id)
        where batch_id is not null`.execute(db);
      // No foreign key to workspaces: a bulk edit writes thousands of events at
      // once and the per-row check would cost a third of the insert. The log
      // is deleted with its workspace by the workspace service, in the same
      // transaction. It is never rewritten: refuse updates outright.
      await sql`
        create function events_refuse_update() returns trigger language plpgsql as $$
        begin
          raise exception 'events are immutable';
        end $$`.execute(db);
      await sql`
        create trigger events_immutable before update on events
        for each row execute function events_refuse_update()`.execute(db);
    },
  },
};
