import { type Kysely, sql } from 'kysely';
import type { Migrations } from '../../db/migrate.js';

// Frozen: a migration never changes once released, and never imports application code.
export const relayMigrations: Migrations = {
  '2026_11_25_402_server_processes': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table server_processes (
          id text primary key,
          internal_url text not null,
          started_at timestamptz not null default now(),
          heartbeat_at timestamptz not null default now()
        )`.execute(db);
      // Which server process holds the node's agent connection (null: none).
      await sql`alter table nodes add column agent_process_id text`.execute(db);
      // Infrastructure secrets shared by the server processes (the relay's credential).
      await sql`
        create table cluster_secrets (
          name text primary key,
          value text not null,
          created_at timestamptz not null default now()
        )`.execute(db);
    },
  },
};
