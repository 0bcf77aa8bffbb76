import { AgentRequestError } from '../../agent/peer.js';
import type { Env } from '../../agent/protocol/schemas.js';
import { AppError } from '../../http/errors.js';
import type { AppContext } from '../../module.js';
import { type AgentRegistry, agentRegistry } from '../nodes/registry.js';
import * as nodes from '../nodes/repository.js';
import { decryptSecretsForWorker } from '../projects/worker-secrets.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import { type WorkerTasks, workerTasks } from './tasks.js';

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
async function workerEnvironment(ctx: AppContext, row: WorkerRow): Promise<Env> {
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

/** Runs the moves of a worker's lifecycle on its node's agent and records each step. */
export class WorkerLifecycle {
  readonly registry: AgentRegistry;
  readonly tasks: WorkerTasks;

  constructor(private readonly ctx: AppContext) {
    this.registry = agentRegistry(ctx);
    this.tasks = workerTasks(ctx);
  }

  private async fail(row: WorkerRow, error: unknown): Promise<void> {
    const reason = reasonOf(error);
    this.ctx.log.warn({ workerId: row.id, reason }, 'worker move failed');
    await repository.updateWorker(this.ctx.db, row.id, { state: 'failed', state_reason: reason });
  }

  /** Queues a move; a failure is recorded as the `failed` state with its reason. */
  private queue(row: WorkerRow, move: () => Promise<void>): Promise<void> {
    return this.tasks.run(row.id, async () => {
      try {
        await move();
      } catch (error) {
        await this.fail(row, error);
      }
    });
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

  private startContainer(row: WorkerRow, containerId: string) {
    return this.registry
      .peer(row.node_id)
      .request(
        'container.start',
        { containerId, repositories: row.repositories, gitEnv: {} },
        START_TIMEOUT_MS,
      );
  }

  create(row: WorkerRow): Promise<void> {
    return this.queue(row, async () => {
      const peer = this.registry.peer(row.node_id);
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
      const kept = await repository.updateWorker(
        this.ctx.db,
        row.id,
        { container_id: container.id },
        ['creating'],
      );
      if (kept === undefined) {
        // Deleted while the container was being made.
        await peer.request('container.remove', { containerId: container.id, force: true });
        return;
      }
      await this.started(row, await this.startContainer(row, container.id));
    });
  }

  start(row: WorkerRow): Promise<void> {
    return this.queue(row, async () => {
      if (row.container_id === null) throw new Error('the worker has no container');
      await this.started(row, await this.startContainer(row, row.container_id));
    });
  }

  stop(row: WorkerRow): Promise<void> {
    return this.queue(row, async () => {
      if (row.container_id === null) throw new Error('the worker has no container');
      const container = await this.registry
        .peer(row.node_id)
        .request(
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
    });
  }

  /** Removes the container (when the node is reachable) and then the worker. */
  remove(row: WorkerRow, force: boolean): Promise<void> {
    return this.queue(row, async () => {
      const current = (await repository.findWorker(this.ctx.db, row.id)) ?? row;
      if (current.container_id !== null) {
        const agent = this.registry.get(row.node_id);
        if (agent !== undefined) {
          try {
            await agent.peer.request('container.remove', {
              containerId: current.container_id,
              force: true,
            });
          } catch (error) {
            const gone = error instanceof AgentRequestError && error.code === 'not_found';
            if (!gone && !force) throw error;
          }
        } else if (!force) {
          throw new AppError('node_offline', 'The node went offline before the removal');
        }
      }
      await repository.deleteWorker(this.ctx.db, row.id);
    });
  }
}

const all = new WeakMap<AppContext, WorkerLifecycle>();

export function workerLifecycle(ctx: AppContext): WorkerLifecycle {
  let lifecycle = all.get(ctx);
  if (lifecycle === undefined) {
    lifecycle = new WorkerLifecycle(ctx);
    all.set(ctx, lifecycle);
  }
  return lifecycle;
}
