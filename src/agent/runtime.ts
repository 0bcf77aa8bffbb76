import { arch, cpus, hostname, platform, totalmem } from 'node:os';
import type Docker from 'dockerode';
import { CommandTracker } from './commands.js';
import {
  createContainer,
  inspectContainer,
  Labels,
  listManaged,
  removeContainer,
  startContainer,
  stopContainer,
} from './containers.js';
import { fromEngineError } from './errors.js';
import { execRun, type RunOptions } from './exec.js';
import { checkoutRepository, gitStatus } from './git.js';
import { type CommittedImage, commitContainer, removeImage } from './images.js';
import { containerLogs } from './logs.js';
import { listeningPorts } from './ports.js';
import { type ProbeOptions, type ProbeResult, probeContainer } from './probe.js';
import type {
  ContainerCreateParams,
  ImageCommitParams,
  NodeInfo,
  ReconcileResult,
} from './protocol/methods.js';
import type {
  Checkout,
  ContainerDetails,
  ContainerStats,
  ContainerSummary,
  Env,
  ExecResult,
  GitStatus,
  ListeningPort,
  Repository,
} from './protocol/schemas.js';
import { type KnownWorker, reconcile } from './reconcile.js';
import { Recovery } from './recovery.js';
import { containerStats } from './stats.js';
import { TerminalManager } from './terminals.js';

export const AGENT_VERSION = '0.1.0';

export interface RuntimeOptions {
  /** Run an init as PID 1 of each container (Docker's docker-init, Podman's catatonit). */
  init?: boolean;
  /** Hold terminal sessions in tmux where the image has it (default true). */
  tmux?: boolean;
  /** Lines of scrollback each terminal session keeps. */
  scrollback?: number;
  /** Output kept per background command. */
  commandOutputLimit?: number;
  /** Gap between the two samples CPU use is measured over. */
  statsIntervalMs?: number;
}

/**
 * Everything a node does with its engine, behind one object: containers,
 * exec, background commands and terminals. The protocol handlers call it;
 * it knows nothing of the connection.
 */
export class Runtime {
  readonly commands: CommandTracker;
  readonly terminals: TerminalManager;
  private readonly init: boolean;
  private readonly statsIntervalMs: number;
  private readonly recovery: Recovery;
  /** The node this agent serves, from the server's welcome. */
  private nodeId: string | null = null;

  constructor(
    readonly docker: Docker,
    options: RuntimeOptions = {},
  ) {
    this.init = options.init ?? true;
    this.statsIntervalMs = options.statsIntervalMs ?? 300;
    this.commands = new CommandTracker(docker, { outputLimit: options.commandOutputLimit });
    this.terminals = new TerminalManager(docker, options.scrollback, {
      multiplexer: options.tmux ?? true,
    });
    this.recovery = new Recovery({
      list: async (nodeId) => (await listManaged(docker, nodeId)).map((c) => c.id),
      recover: async (id) => {
        await Promise.all([this.terminals.recover([id]), this.commands.recover([id])]);
      },
    });
  }

  async nodeInfo(): Promise<NodeInfo> {
    const base = {
      hostname: hostname(),
      platform: platform(),
      arch: arch(),
      cpus: cpus().length,
      memoryBytes: totalmem(),
      agentVersion: AGENT_VERSION,
    };
    try {
      const version = await this.docker.version();
      const podman = version.Components?.some((c) => /podman/i.test(c.Name)) ?? false;
      return {
        ...base,
        engine: {
          reachable: true,
          name: podman ? 'podman' : 'docker',
          version: version.Version ?? null,
          apiVersion: version.ApiVersion ?? null,
          error: null,
        },
      };
    } catch (error) {
      const message = fromEngineError(error, 'engine').message;
      return {
        ...base,
        engine: { reachable: false, name: null, version: null, apiVersion: null, error: message },
      };
    }
  }

  /**
   * The server's welcome named the node this agent serves: containers it
   * creates from now on carry the node's label, and the node's containers
   * are recovered (once per agent start; see Recovery).
   */
  welcomed(nodeId: string): void {
    this.nodeId = nodeId;
    this.recovery.start(nodeId);
  }

  /** Resolves once the container (or, without one, every container) is recovered. */
  recovered(containerId?: string): Promise<void> {
    return containerId === undefined ? this.recovery.settled() : this.recovery.ready(containerId);
  }

  inventory(): Promise<ContainerSummary[]> {
    return listManaged(this.docker);
  }

  /**
   * Also recovers the running containers the server names as this node's
   * workers that carry no node label: those created before containers were
   * labelled with their node, which no agent recovers unasked.
   */
  async reconcile(workers: KnownWorker[]): Promise<ReconcileResult> {
    const result = reconcile(await this.inventory(), workers);
    this.recovery.adopt(
      result.present
        .map(({ container }) => container)
        .filter((c) => c.state === 'running' && c.labels[Labels.node] === undefined)
        .map((c) => c.id),
    );
    return result;
  }

  createContainer(params: ContainerCreateParams): Promise<ContainerDetails> {
    return createContainer(this.docker, params, { init: this.init, nodeId: this.nodeId });
  }

  /** Starts the container, then clones the repositories it does not hold yet. */
  async startContainer(
    id: string,
    repositories: Repository[] = [],
    gitEnv: Env = {},
  ): Promise<{ container: ContainerDetails; checkouts: Checkout[] }> {
    await startContainer(this.docker, id);
    const checkouts: Checkout[] = [];
    for (const repository of repositories) {
      checkouts.push(await checkoutRepository(this.docker, id, repository, gitEnv));
    }
    return { container: await inspectContainer(this.docker, id), checkouts };
  }

  async stopContainer(id: string, timeoutSeconds?: number): Promise<ContainerDetails> {
    await stopContainer(this.docker, id, timeoutSeconds);
    return inspectContainer(this.docker, id);
  }

  /**
   * Removes the container. Its processes go with it: running commands end as
   * cancelled, terminal sessions end and their clients are told.
   */
  async removeContainer(id: string, force: boolean): Promise<boolean> {
    if (force) this.commands.abandon(id);
    return removeContainer(this.docker, id, force);
  }

  inspect(id: string): Promise<ContainerDetails> {
    return inspectContainer(this.docker, id);
  }

  probe(id: string, options: ProbeOptions): Promise<ProbeResult> {
    return probeContainer(this.docker, id, options);
  }

  logs(id: string, tail?: number): Promise<string> {
    return containerLogs(this.docker, id, tail);
  }

  stats(id: string): Promise<ContainerStats> {
    return containerStats(this.docker, id, this.statsIntervalMs);
  }

  ports(id: string): Promise<ListeningPort[]> {
    return listeningPorts(this.docker, id);
  }

  gitStatus(id: string, path: string): Promise<GitStatus> {
    return gitStatus(this.docker, id, path);
  }

  exec(id: string, options: RunOptions): Promise<ExecResult> {
    return execRun(this.docker, id, options);
  }

  /** Commits the container as `repository:tag` (a pre-built project image). */
  commitImage(params: ImageCommitParams): Promise<CommittedImage> {
    const { containerId, ...options } = params;
    return commitContainer(this.docker, containerId, options);
  }

  removeImage(reference: string): Promise<boolean> {
    return removeImage(this.docker, reference);
  }
}
