import type { ColumnType, Generated } from 'kysely';
import type { NodeInfo } from '../../agent/protocol/methods.js';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export interface NodesTable {
  id: string;
  /** Null for the shared built-in node. */
  org_id: string | null;
  name: string;
  /** Host name or address clients reach forwarded ports at; null: loopback of the node. */
  public_address: string | null;
  token_hash: string;
  token_prefix: string;
  max_workers: number | null;
  draining_at: Date | null;
  /** An agent connection is open (on some server process). */
  connected: Generated<boolean>;
  last_seen_at: Date | null;
  /** The server process holding the agent connection (see src/platform/relay); null: none. */
  agent_process_id: Generated<string | null>;
  agent_version: string | null;
  /** What the agent said of its machine and engine in its last hello. */
  info: Json<NodeInfo> | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    nodes: NodesTable;
  }
}
