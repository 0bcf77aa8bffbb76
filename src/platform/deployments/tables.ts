import type { ColumnType, Generated } from 'kysely';
import type { EncryptedSecretsTable } from '../secrets/store.js';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

/** Environment variables by name (values in clear: secrets live apart). */
export type EnvMap = Record<string, string>;

export interface DeploymentsTable {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  env: Json<EnvMap>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    deployments: DeploymentsTable;
    /** `owner_id` is the deployment. */
    deployment_secrets: EncryptedSecretsTable;
  }
}
