import type { ColumnType, Generated } from 'kysely';
import type { EnvMap } from '../deployments/tables.js';
import type { EncryptedSecretsTable } from '../secrets/store.js';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

/** Where a service's image comes from. */
export type ServiceSource =
  | { type: 'image'; image: string }
  | { type: 'project'; projectId: string; branch: string | null };

export interface HealthCheck {
  path: string;
  intervalSeconds: number;
  timeoutSeconds: number;
  /** How long a new replica has to answer 2xx or 3xx before the deploy is rolled back. */
  graceSeconds: number;
}

export interface PreDeployHook {
  command: string;
  timeoutSeconds: number;
}

export interface CronJob {
  name: string;
  schedule: string;
  command: string;
}

export interface CustomDomain {
  name: string;
  /** The TXT record's value that proves control of the domain. */
  token: string;
  verifiedAt: string | null;
}

/** The states a service moves through (see the README, "Deployments and services"). */
export const SERVICE_STATES = ['stopped', 'deploying', 'running', 'stopping', 'failed'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

export interface ServicesTable {
  id: string;
  org_id: string;
  deployment_id: string;
  name: string;
  source: Json<ServiceSource>;
  command: string | null;
  port: number | null;
  env: Json<EnvMap>;
  replicas: number;
  health_check: NullableJson<HealthCheck>;
  access_control: 'public' | 'private';
  /** User ids allowed through a private service's door with their personal keys. */
  allowlist: Json<string[]>;
  custom_domain: NullableJson<CustomDomain>;
  pre_deploy: NullableJson<PreDeployHook>;
  cron_jobs: Json<CronJob[]>;
  state: ColumnType<ServiceState, ServiceState | undefined, ServiceState>;
  state_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The deploy (job run) whose replicas serve traffic; null before the first one succeeds. */
  active_run_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/**
 * A replica's life: `starting` (container started, not yet healthy),
 * `active` (serves traffic), `draining` (replaced; finishes what it serves
 * before it is removed), `stopped` (container removed; the row is kept until
 * its run's rows go).
 */
export const REPLICA_STATES = ['starting', 'active', 'draining', 'stopped'] as const;
export type ReplicaState = (typeof REPLICA_STATES)[number];

/** One container of a service, on one node, started by one deploy (job run). */
export interface ServiceReplicasTable {
  id: string;
  service_id: string;
  run_id: string;
  node_id: string;
  /** The container's name on its node's engine (unique: `sparrow-svc-...`). */
  container_name: string;
  /** The container port it serves (the service's port when the deploy started). */
  port: number | null;
  state: ColumnType<ReplicaState, ReplicaState | undefined, ReplicaState>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A container to remove from its node, kept until the agent confirms (`removals.ts`). */
export interface ContainerRemovalsTable {
  node_id: string;
  container_name: string;
  /** Until this job ends the container is its own: not removed yet. */
  job_id: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    container_removals: ContainerRemovalsTable;
    services: ServicesTable;
    /** `owner_id` is the service. */
    service_secrets: EncryptedSecretsTable;
    service_replicas: ServiceReplicasTable;
  }
}
