import type { ColumnType, Generated } from 'kysely';

export const JOB_RUN_KINDS = ['deploy', 'pre_deploy', 'cron'] as const;
export type JobRunKind = (typeof JOB_RUN_KINDS)[number];

export const JOB_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobRunStatus = (typeof JOB_RUN_STATUSES)[number];

/** A deploy, a pre-deploy hook or a cron run of one service, kept after its containers are gone. */
export interface JobRunsTable {
  id: string;
  org_id: string;
  deployment_id: string;
  service_id: string;
  kind: JobRunKind;
  /** The cron job's name (cron runs only). */
  job_name: string | null;
  /** The deploy run a hook belongs to (pre_deploy runs only). */
  parent_id: string | null;
  status: ColumnType<JobRunStatus, JobRunStatus | undefined, JobRunStatus>;
  /** Why it failed or was cancelled, in words. */
  reason: string | null;
  exit_code: number | null;
  /** The image it ran (a deploy records it so that it can be deployed again). */
  image: string | null;
  /** The cron tick it runs for: unique per (service, job, tick), so a tick runs once. */
  scheduled_at: Date | null;
  /** Bytes of output kept, and whether some were dropped past the cap. */
  output_bytes: Generated<number>;
  output_truncated: Generated<boolean>;
  created_at: Generated<Date>;
  started_at: Date | null;
  ended_at: Date | null;
}

/** A run's output in order, one row per chunk written. */
export interface JobRunOutputTable {
  run_id: string;
  seq: number;
  data: Buffer;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    job_runs: JobRunsTable;
    job_run_output: JobRunOutputTable;
  }
}
