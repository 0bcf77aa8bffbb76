import { sql } from 'kysely';
import { notify } from '../../db/listen.js';
import type { Database } from '../../db/schema.js';

/** Output kept per run; what comes past it is dropped and the run says so. */
export const JOB_RUN_OUTPUT_CAP = 1024 * 1024;

/** New output of a run was written: the payload is the run id. */
export const JOB_RUN_OUTPUT_CHANNEL = 'sparrow_job_run_output';

/**
 * Appends a run's output to the database as it comes, in order, up to
 * {@link JOB_RUN_OUTPUT_CAP} bytes, and wakes the followers of the run on any
 * server process. Writes are chained: `write` never blocks its caller, and
 * `flush` waits for everything written so far.
 */
export class RunOutput {
  private seq = 0;
  private kept = 0;
  private truncated = false;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly db: Database,
    readonly runId: string,
  ) {}

  write(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.length === 0) return;
    const room = JOB_RUN_OUTPUT_CAP - this.kept;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, Math.max(0, room));
    const dropped = kept.length < bytes.length;
    if (kept.length === 0 && (!dropped || this.truncated)) return;
    this.kept += kept.length;
    if (dropped) this.truncated = true;
    const seq = this.seq++;
    this.chain = this.chain
      .then(() => this.append(seq, kept, dropped))
      .catch((error) => {
        this.failure ??= error;
      });
  }

  /** Waits for every chunk written so far to be stored. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== null) throw this.failure;
  }

  private async append(seq: number, data: Buffer, dropped: boolean): Promise<void> {
    if (data.length > 0) {
      await this.db
        .insertInto('job_run_output')
        .values({ run_id: this.runId, seq, data })
        .execute();
    }
    await this.db
      .updateTable('job_runs')
      .set({
        output_bytes: sql`output_bytes + ${data.length}`,
        ...(dropped ? { output_truncated: true } : {}),
      })
      .where('id', '=', this.runId)
      .execute();
    await notify(this.db, JOB_RUN_OUTPUT_CHANNEL, this.runId);
  }
}

export interface OutputChunk {
  seq: number;
  data: Buffer;
}

/** A run's output after chunk `afterSeq` (-1: from the start), in order. */
export async function readRunOutput(
  db: Database,
  runId: string,
  afterSeq = -1,
): Promise<OutputChunk[]> {
  const rows = await db
    .selectFrom('job_run_output')
    .select(['seq', 'data'])
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
  // PGlite reads bytea as a plain Uint8Array: a Buffer view of it, as pg gives.
  return rows.map(({ seq, data }) => ({
    seq,
    data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  }));
}
