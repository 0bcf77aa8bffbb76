import type { ColumnType, Generated } from 'kysely';
import type { Checkout, PortMapping, Repository } from '../../agent/protocol/schemas.js';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string | undefined, string>;

export const WORKER_STATES = [
  'creating',
  'ready',
  'stopping',
  'stopped',
  'starting',
  'deleting',
  'failed',
  'lost',
] as const;
export type WorkerState = (typeof WORKER_STATES)[number];

export interface WorkersTable {
  id: string;
  org_id: string;
  project_id: string;
  node_id: string;
  /** The member the worker was spawned for (their secrets); null for an organization key. */
  user_id: string | null;
  created_by_key_id: string | null;
  name: string;
  /** The branch asked for at spawn; null: each repository's own. */
  branch: string | null;
  state: WorkerState;
  /** Why the worker is failed, lost or stopped on its own; null otherwise. */
  state_reason: string | null;
  state_changed_at: Generated<Date>;
  container_id: string | null;
  image: string;
  /** The checkouts asked of the agent, with their paths in the container. */
  repositories: Json<Repository[]>;
  forward_ports: Json<number[]>;
  /** Port mappings as the engine last reported them. */
  ports: Json<PortMapping[]>;
  checkouts: Json<Checkout[]>;
  ready_at: Date | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface WorkerSshTokensTable {
  id: string;
  worker_id: string;
  /** The person the token acts as (their role is checked again at each use). */
  user_id: string;
  token_hash: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    workers: WorkersTable;
    worker_ssh_tokens: WorkerSshTokensTable;
  }
}
