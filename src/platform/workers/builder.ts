import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { AppContext } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { enqueueJob, type JobRow } from '../job-queue/queue.js';
import { waitForJob } from '../job-queue/wait.js';
import type { NodeRow } from '../nodes/repository.js';
import { projectInOrg } from '../projects/lookup.js';
import type { ProjectRow } from '../projects/repository.js';
import { currentImage } from './images.js';
import { WorkerJobs } from './lifecycle.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import type { SpawnWorkerBody, Worker } from './schemas.js';
import * as service from './service.js';

/** What a new worker is built from: its project, and the spawn body's choices. */
export interface WorkerBuildOptions extends SpawnWorkerBody {
  projectId: string;
  /** Answer once the create job has ended (`ready` or `failed`) rather than at once. */
  wait?: boolean | undefined;
}

/** A worker placed and inserted, with the job that creates its container. */
export interface PlacedWorker {
  node: NodeRow;
  row: WorkerRow;
  job: JobRow;
}

/**
 * Builds one new worker, the one way a worker comes to be (the spawn route,
 * and through it the tool server's create_worker): who may, its project,
 * where it goes, its image, name and checkouts, and the job that creates its
 * container. Placement, the insert and the job share one transaction with
 * the candidate nodes locked, so a node's `maxWorkers` holds whatever the
 * concurrency.
 */
export class WorkerBuilder {
  constructor(
    private readonly ctx: AppContext,
    private readonly access: OrgAccess,
    private readonly options: WorkerBuildOptions,
  ) {}

  /** Builds it and answers the worker as it is then (after its create job, with `wait`). */
  async build(db: Database): Promise<Worker> {
    const { node, row, job } = await this.place(db);
    if (this.options.wait === true) await waitForJob(this.ctx, job.id);
    const now = (await repository.findWorker(db, row.id)) ?? row;
    return service.toWorker(now, node.public_address);
  }

  /**
   * The project, then placement, the row and its create job in one
   * transaction (the spawn route checks `workers.use`).
   */
  private async place(db: Database): Promise<PlacedWorker> {
    const { access, options } = this;
    const project = await projectInOrg(db, access, options.projectId);
    return inTransaction(db, async (trx) => {
      const node = await service.placeWorker(trx, access, options.nodeId);
      const image = await this.image(trx, project, node);
      const row = await service.createWorkerRow(trx, access, project, node, image, options);
      const job = await enqueueJob(trx, {
        kind: WorkerJobs.create,
        nodeId: node.id,
        targetId: row.id,
      });
      return { node, row, job };
    });
  }

  /** A pre-built image holds the default branches; a worker on another branch clones afresh. */
  private async image(trx: Database, project: ProjectRow, node: NodeRow): Promise<string> {
    return this.options.branch === undefined
      ? currentImage(this.ctx, project, node.id, trx)
      : this.ctx.config.workerImage;
  }
}
