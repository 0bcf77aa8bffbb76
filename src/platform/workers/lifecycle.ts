import { AgentRequestError } from '../../agent/peer.js';
import type { Env } from '../../agent/protocol/schemas.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { AppBase } from '../../module.js';
import type { JobKind, JobKinds } from '../job-queue/kinds.js';
import type { JobRow } from '../job-queue/queue.js';
import type { AgentRegistry, ConnectedAgent } from '../nodes/registry.js';
import * as nodes from '../nodes/repository.js';
import { decryptSecretsForWorker } from '../projects/worker-secrets.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import type { WorkerState } from './tables.js';

/** Creating a container may pull nothing but still unpack a large image. */
const CREATE_TIMEOUT_MS = 5 * 60_000;
/** Starting includes cloning every repository. */
const START_TIMEOUT_MS = 30 * 60_000;
const STOP_TIMEOUT_SECONDS = 10;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function reasonOf(error: unknown): string {
  if (error instanceof AgentRequestError) return `${error.code}: ${error.message}`;
  if (error instanceof AppError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The worker's environment: the project's secrets, then the user's (a
 * personal secret overrides a shared one of the same name), then Sparrow's
 * own variables. Values are decrypted on their way to the agent only.
 */
async function workerEnvironment(ctx: AppBase, row: WorkerRow): Promise<Env> {
  const env: Env = {};
  const secrets = await decryptSecretsForWorker(ctx.db, ctx.config, {
    orgId: row.org_id,
    projectId: row.project_id,
    userId: row.user_id,
  });
  for (const secret of [...secrets.project, ...secrets.user]) {
    if (ENV_NAME.test(secret.name)) env[secret.name] = secret.value;
  }
  env.SPARROW_WORKER_ID = row.id;
  env.SPARROW_PROJECT_ID = row.project_id;
  env.SPARROW_ORG_ID = row.org_id;
  return env;
}

/** The job kinds of a worker's moves; each is queued with the state change it carries out. */
export const WorkerJobs = {
  create: 'worker.create',
  start: 'worker.start',
  stop: 'worker.stop',
  delete: 'worker.delete',
} as const;

/**
 * Runs the moves of a worker's lifecycle on its node's agent, as jobs (see
 * src/platform/job-queue): whichever server process holds the agent runs them,
 * and a move cut off by a process's death runs again in the next one, so
 * each picks up from what it finds.
 */
export class WorkerLifecycle {
  constructor(
    private readonly ctx: AppBase,
    readonly registry: AgentRegistry,
    private readonly kinds: JobKinds,
  ) {}

  /** Registers the moves as job kinds of the application. */
  register(): void {
    const kinds = this.kinds;
    const kind = (
      from: readonly WorkerState[],
      move: (row: WorkerRow, agent: ConnectedAgent, job: JobRow) => Promise<void>,
    ): JobKind => ({
      run: async (job, agent) => {
        const row = await repository.findWorker(this.ctx.db, job.target_id);
        // Gone, or settled meanwhile (by an earlier attempt of this job or the reconciler).
        if (row === undefined || !from.includes(row.state)) return;
        await move(row, agent, job);
      },
      fail: (db, job, reason) => this.fail(db, job.target_id, from, reason),
    });
    kinds.register(
      WorkerJobs.create,
      kind(['creating'], (row, agent, job) => this.create(row, agent, job)),
    );
    kinds.register(
      WorkerJobs.start,
      kind(['starting'], (row, agent) => this.start(row, agent)),
    );
    kinds.register(
      WorkerJobs.stop,
      kind(['stopping'], (row, agent) => this.stop(row, agent)),
    );
    kinds.register(
      WorkerJobs.delete,
      kind(['deleting'], (row, agent, job) => this.remove(row, agent, job.payload.force === true)),
    );
  }

  private async fail(
    db: Database,
    workerId: string,
    from: readonly WorkerState[],
    reason: string,
  ): Promise<void> {
    this.ctx.log.warn({ workerId, reason }, 'worker move failed');
    await repository.updateWorker(db, workerId, { state: 'failed', state_reason: reason }, from);
  }

  /** Records what `container.start` answered: ready, or failed naming the checkout. */
  private async started(
    row: WorkerRow,
    result: Awaited<ReturnType<typeof this.startContainer>>,
  ): Promise<void> {
    const broken = result.checkouts.find((checkout) => !checkout.ok);
    await repository.updateWorker(
      this.ctx.db,
      row.id,
      {
        state: broken === undefined ? 'ready' : 'failed',
        state_reason:
          broken === undefined ? null : `checkout of ${broken.path} failed: ${broken.message}`,
        ports: result.container.ports,
        checkouts: result.checkouts,
        ready: broken === undefined,
      },
      ['creating', 'starting'],
    );
  }

  private startContainer(row: WorkerRow, agent: ConnectedAgent, containerId: string) {
    return agent.peer.request(
      'container.start',
      { containerId, repositories: row.repositories, gitEnv: {} },
      START_TIMEOUT_MS,
    );
  }

  /** The container an earlier, interrupted attempt made for the worker, if any. */
  private async earlierContainer(row: WorkerRow, agent: ConnectedAgent): Promise<string | null> {
    const result = await agent.peer.request('inventory.reconcile', {
      workers: [{ workerId: row.id, containerId: null }],
    });
    return result.present.find((entry) => entry.workerId === row.id)?.container.id ?? null;
  }

  private async create(row: WorkerRow, agent: ConnectedAgent, job: JobRow): Promise<void> {
    const { peer } = agent;
    let containerId = row.container_id;
    if (containerId === null && job.attempts > 1)
      containerId = await this.earlierContainer(row, agent);
    if (containerId === null) {
      const node = await nodes.findNodeById(this.ctx.db, row.node_id);
      const env = await workerEnvironment(this.ctx, row);
      const container = await peer.request(
        'container.create',
        {
          image: row.image,
          workerId: row.id,
          labels: { 'sparrow.org': row.org_id, 'sparrow.project': row.project_id },
          env,
          ports: row.forward_ports.map((containerPort) => ({
            containerPort,
            hostIp: node?.public_address ? '0.0.0.0' : '127.0.0.1',
          })),
          workdir: '/workspaces',
        },
        CREATE_TIMEOUT_MS,
      );
      containerId = container.id;
    }
    const kept = await repository.updateWorker(this.ctx.db, row.id, { container_id: containerId }, [
      'creating',
    ]);
    if (kept === undefined) {
      // Deleted (or settled) while the container was being made.
      if ((await repository.findWorker(this.ctx.db, row.id)) === undefined) {
        await peer.request('container.remove', { containerId, force: true });
      }
      return;
    }
    await this.started(row, await this.startContainer(row, agent, containerId));
  }

  private async start(row: WorkerRow, agent: ConnectedAgent): Promise<void> {
    if (row.container_id === null) throw new Error('the worker has no container');
    await this.started(row, await this.startContainer(row, agent, row.container_id));
  }

  private async stop(row: WorkerRow, agent: ConnectedAgent): Promise<void> {
    if (row.container_id === null) throw new Error('the worker has no container');
    const container = await agent.peer.request(
      'container.stop',
      { containerId: row.container_id, timeoutSeconds: STOP_TIMEOUT_SECONDS },
      (STOP_TIMEOUT_SECONDS + 60) * 1000,
    );
    await repository.updateWorker(
      this.ctx.db,
      row.id,
      { state: 'stopped', ports: container.ports },
      ['stopping'],
    );
  }

  /** Removes the container and then the worker. */
  private async remove(row: WorkerRow, agent: ConnectedAgent, force: boolean): Promise<void> {
    if (row.container_id !== null) {
      try {
        await agent.peer.request('container.remove', {
          containerId: row.container_id,
          force: true,
        });
      } catch (error) {
        const gone = error instanceof AgentRequestError && error.code === 'not_found';
        if (!gone && !force) throw error;
      }
    }
    await repository.deleteWorker(this.ctx.db, row.id);
  }
}
