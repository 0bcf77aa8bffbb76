import type { ColumnType, Generated } from 'kysely';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string | undefined, string>;

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobsTable {
  id: string;
  /** What the job does (`worker.create`, `image.build`, ...): a key of the kinds registry. */
  kind: string;
  /**
   * The node whose agent runs it: only the process holding that agent claims
   * it. Null for a job any server process runs (a deploy, which reaches the
   * nodes it needs through the relay).
   */
  node_id: string | null;
  /** The worker, build, ... it acts on; one open job per target runs at a time, oldest first. */
  target_id: string;
  payload: Json<Record<string, unknown>>;
  state: Generated<JobState>;
  /** Claims so far; a job claimed again after its process died counts each. */
  attempts: Generated<number>;
  /** The server process that holds the job while it runs. */
  lease_owner: string | null;
  /** Past this, the job is another process's to take over. */
  lease_expires_at: Date | null;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

declare module '../../db/schema.js' {
  interface DB {
    jobs: JobsTable;
  }
}
