import type { Generated } from 'kysely';

export interface ServerProcessesTable {
  /** The process's id, as it signs its job leases. */
  id: string;
  /** Where the other processes reach it (`INTERNAL_URL`). */
  internal_url: string;
  started_at: Generated<Date>;
  heartbeat_at: Generated<Date>;
}

export interface ClusterSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    server_processes: ServerProcessesTable;
    cluster_secrets: ClusterSecretsTable;
  }
}
