import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const fieldsMigrations: Migrations = {
  '2026_11_22_105_fields': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table fields (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          key text not null,
          type text not null,
          name text not null,
          config jsonb not null default '{}',
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`.execute(db);
      await sql`create unique index fields_key_key on fields (workspace_id, key)`.execute(db);
    },
  },
  /**
   * A version per workspace that every change of its fields (and options),
   * statuses or lists bumps in the changing transaction, with a
   * `sparrow_registry` notification carrying the workspace id: servers keep
   * the registry in memory and reload it when a request reads a newer
   * version (or a notification evicts it).
   */
  '2026_11_25_302_registry_versions': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create table registry_versions (
           workspace_id uuid primary key,
           version bigint not null)`,
        `create function registry_version_bump() returns trigger language plpgsql as $$
         declare
           workspace uuid := case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end;
         begin
           insert into registry_versions (workspace_id, version) values (workspace, 1)
           on conflict (workspace_id) do update set version = registry_versions.version + 1;
           perform pg_notify('sparrow_registry', workspace::text);
           return null;
         end $$`,
        `create trigger fields_registry_version after insert or update or delete on fields
         for each row execute function registry_version_bump()`,
        `create trigger statuses_registry_version after insert or update or delete on statuses
         for each row execute function registry_version_bump()`,
        `create trigger collections_registry_version after insert or update or delete on collections
         for each row execute function registry_version_bump()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
  /**
   * A workspace's registry version goes with it (spec: deleting a workspace
   * removes everything it owns). The bump trigger fires for the fields,
   * statuses and lists the deletion cascades to, after the workspace row is
   * gone: it now writes a version only for a workspace that still exists,
   * and the foreign key removes the row itself. Rows left by deletions
   * before this migration are removed.
   */
  '2026_11_28_861_registry_versions_cascade': {
    async up(db: Kysely<unknown>) {
      const statements = [
        `create or replace function registry_version_bump() returns trigger language plpgsql as $$
         declare
           workspace uuid := case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end;
         begin
           insert into registry_versions (workspace_id, version)
           select workspace, 1 where exists (select 1 from workspaces where id = workspace)
           on conflict (workspace_id) do update set version = registry_versions.version + 1;
           perform pg_notify('sparrow_registry', workspace::text);
           return null;
         end $$`,
        `delete from registry_versions as versions
         where not exists (select 1 from workspaces where workspaces.id = versions.workspace_id)`,
        `alter table registry_versions add constraint registry_versions_workspace_fkey
         foreign key (workspace_id) references workspaces (id) on delete cascade`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  },
};
