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
  '2026_11_23_101_event_positions': {
    async up(db: Kysely<unknown>) {
      // The log's order becomes (xid, position): the writing transaction's
      // id and a sequence, neither of which needs a lock. Readers see only
      // events of transactions older than every still-running one.
      await sql`create sequence events_position_seq`.execute(db);
      await sql`alter table events add column xid xid8, add column position bigint`.execute(db);
      // Existing events keep their order (by id) under this migration's xid.
      await sql`alter table events disable trigger events_immutable`.execute(db);
      await sql`
        update events set xid = pg_current_xact_id(), position = ordered.position
        from (select id, row_number() over (order by id) as position from events) as ordered
        where events.id = ordered.id`.execute(db);
      await sql`alter table events enable trigger events_immutable`.execute(db);
      await sql`
        select setval('events_position_seq', coalesce((select max(position) from events), 0) + 1, false)`.execute(
        db,
      );
      await sql`
        alter table events
          alter column xid set default pg_current_xact_id(),
          alter column xid set not null,
          alter column position set default nextval('events_position_seq'),
          alter column position set not null`.execute(db);
      await sql`create index events_log_idx on events (workspace_id, xid, position)`.execute(db);
      // Ranges by id (a webhook delivery's events) use the primary key.
      await sql`drop index events_workspace_idx`.execute(db);
    },
  },
  '2026_11_28_862_events_by_resource': {
    async up(db: Kysely<unknown>) {
      // A new event of a resource sorts after the resource's last one: the
      // writer reads that event's xid, through this index.
      await sql`create index events_resource_idx on events (resource_id, xid)`.execute(db);
    },
  },
  '2026_11_29_412_events_notify': {
    async up(db: Kysely<unknown>) {
      // Wakes the event streams of every server process: one notification per
      // workspace per statement that writes events (PostgreSQL folds repeats
      // within a transaction), sent at commit, never for a rollback.
      await sql`
        create function events_notify() returns trigger language plpgsql as $$
        declare
          workspace uuid;
        begin
          for workspace in select distinct workspace_id from written loop
            perform pg_notify('sparrow_events', workspace::text);
          end loop;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger events_notify after insert on events
        referencing new table as written
        for each statement execute function events_notify()`.execute(db);
    },
  },
};
