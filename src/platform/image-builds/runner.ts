import { notify } from '../../db/listen.js';
import type { AppContext } from '../../module.js';
import type { ConnectedAgent } from '../nodes/registry.js';
import type { ProjectRow } from '../projects/repository.js';
import { reasonOf } from '../workers/lifecycle.js';
import { checkoutPlan } from '../workers/service.js';
import { IMAGE_BUILD_CHANNEL } from './activity.js';
import type { BuildProgress, ImageBuildRow } from './repository.js';
import * as repository from './repository.js';
import type { BuildStep } from './tables.js';

/** Creating a container may unpack a large base image. */
const CREATE_TIMEOUT_MS = 5 * 60_000;
const CLONE_TIMEOUT_MS = 30 * 60_000;
const COMMIT_TIMEOUT_MS = 30 * 60_000;
const REMOVE_TIMEOUT_MS = 2 * 60_000;
/** Earlier successful builds of a project whose images a node keeps besides the newest. */
const KEEP_EARLIER_IMAGES = 1;

/** Why feature steps are skipped, in each one's message. */
export const FEATURE_SKIPPED =
  'Not installed: dev container features come from a feature registry (such as ghcr.io), which ' +
  'this server does not reach. Install the tool in the base image (WORKER_IMAGE) instead.';

export function imageRepository(projectId: string): string {
  return `localhost/sparrow/project-${projectId}`;
}

/** The full build id: a UUIDv7's first characters are a timestamp, shared by builds made together. */
export function imageTag(projectVersion: number, buildId: string): string {
  return `v${projectVersion}-${buildId}`;
}

/** The build's container on its node, named so that it can be found again after a restart. */
export function buildContainerName(buildId: string): string {
  return `sparrow-build-${buildId}`;
}

export function plannedSteps(project: ProjectRow): BuildStep[] {
  const features = Object.keys(project.features).map((id) => `feature ${id}`);
  return ['base image', 'repositories', ...features, 'commit'].map((name) => ({
    name,
    status: 'pending',
    startedAt: null,
    finishedAt: null,
    message: null,
  }));
}

interface StepOutcome {
  status: 'succeeded' | 'skipped';
  message: string;
}

class StepFailed extends Error {}

/** One build on its node's agent: each step recorded, then announced to log followers. */
class BuildRun {
  private readonly steps: BuildStep[];
  private log: string;
  private containerId: string | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly build: ImageBuildRow,
    private readonly project: ProjectRow,
    private readonly agent: ConnectedAgent,
  ) {
    this.steps = build.steps.map((step) => ({ ...step }));
    this.log = build.log;
  }

  async run(): Promise<void> {
    this.line(`Building ${this.build.image} from ${this.build.base_image}`);
    await this.save({ status: 'running', started_at: new Date() });
    let error: string | null = null;
    try {
      await this.step('base image', () => this.createContainer());
      await this.step('repositories', () => this.cloneRepositories());
      for (const id of Object.keys(this.project.features)) {
        await this.step(`feature ${id}`, async () => ({
          status: 'skipped',
          message: FEATURE_SKIPPED,
        }));
      }
      await this.step('commit', () => this.commit());
    } catch (failure) {
      error = reasonOf(failure);
    }
    await this.removeContainer();
    if (error === null) await this.pruneOlderImages();
    for (const step of this.steps) {
      if (step.status !== 'pending') continue;
      step.status = 'skipped';
      step.message = 'Not run: an earlier step failed';
    }
    this.line(error === null ? `Build succeeded: ${this.build.image}` : `Build failed: ${error}`);
    await this.save({
      status: error === null ? 'succeeded' : 'failed',
      error,
      finished_at: new Date(),
    });
  }

  private peer() {
    return this.agent.peer;
  }

  private line(text: string): void {
    this.log += `${new Date().toISOString()} ${text}\n`;
  }

  private async save(progress: BuildProgress = {}): Promise<void> {
    await repository.updateBuild(this.ctx.db, this.build.id, {
      steps: this.steps,
      log: this.log,
      ...progress,
    });
    this.ctx.builds.activity.changes.emit(this.build.id);
    await notify(this.ctx.db, IMAGE_BUILD_CHANNEL, this.build.id);
  }

  private async step(name: string, work: () => Promise<StepOutcome>): Promise<void> {
    const step = this.steps.find((candidate) => candidate.name === name);
    if (step === undefined) throw new StepFailed(`${name}: the step is not in the plan`);
    step.status = 'running';
    step.startedAt = new Date().toISOString();
    this.line(`${name}: started`);
    await this.save();
    let failed: string | null = null;
    try {
      const outcome = await work();
      step.status = outcome.status;
      step.message = outcome.message;
      this.line(`${name}: ${outcome.status}: ${outcome.message}`);
    } catch (error) {
      failed = reasonOf(error);
      step.status = 'failed';
      step.message = failed;
      this.line(`${name}: failed: ${failed}`);
    }
    step.finishedAt = new Date().toISOString();
    await this.save();
    if (failed !== null) throw new StepFailed(`${name}: ${failed}`);
  }

  private async createContainer(): Promise<StepOutcome> {
    const { id, org_id, project_id, base_image } = this.build;
    const container = await this.peer().request(
      'container.create',
      {
        image: base_image,
        name: buildContainerName(id),
        labels: { 'sparrow.build': id, 'sparrow.org': org_id, 'sparrow.project': project_id },
        workdir: '/workspaces',
      },
      CREATE_TIMEOUT_MS,
    );
    this.containerId = container.id;
    await this.peer().request('container.start', { containerId: container.id }, CREATE_TIMEOUT_MS);
    return {
      status: 'succeeded',
      message: `Started container ${container.name} from ${base_image}`,
    };
  }

  private async cloneRepositories(): Promise<StepOutcome> {
    const repositories = checkoutPlan(this.project, null);
    if (repositories.length === 0) {
      return { status: 'skipped', message: 'The project has no repositories' };
    }
    const result = await this.peer().request(
      'container.start',
      { containerId: this.requireContainer(), repositories, gitEnv: {} },
      CLONE_TIMEOUT_MS,
    );
    for (const checkout of result.checkouts) {
      const branch = checkout.branch === null ? '' : ` (${checkout.branch})`;
      this.line(`${checkout.path}${branch}: ${checkout.ok ? 'ok' : 'failed'}: ${checkout.message}`);
    }
    const broken = result.checkouts.find((checkout) => !checkout.ok);
    if (broken !== undefined) {
      throw new Error(`checkout of ${broken.path} failed: ${broken.message}`);
    }
    const paths = result.checkouts.map((checkout) => checkout.path).join(', ');
    return { status: 'succeeded', message: `Cloned ${paths}` };
  }

  private async commit(): Promise<StepOutcome> {
    const { id, project_id, project_version } = this.build;
    const committed = await this.peer().request(
      'image.commit',
      {
        containerId: this.requireContainer(),
        repository: imageRepository(project_id),
        tag: imageTag(project_version, id),
        labels: {
          'sparrow.build': id,
          'sparrow.project': project_id,
          'sparrow.project-version': String(project_version),
        },
      },
      COMMIT_TIMEOUT_MS,
    );
    if (committed.reference !== this.build.image) {
      throw new Error(`the agent committed ${committed.reference}, not ${this.build.image}`);
    }
    return { status: 'succeeded', message: `Committed ${committed.reference} (${committed.id})` };
  }

  private requireContainer(): string {
    if (this.containerId === null) throw new Error('the build container was not created');
    return this.containerId;
  }

  /**
   * Images of older successful builds of the project on this node go, but for
   * the one before this (a spawn may be starting from it right now) and any
   * a container still uses (the engine refuses those; they go after a later
   * build). Logged, never fatal.
   */
  private async pruneOlderImages(): Promise<void> {
    const older = await repository.earlierImages(this.ctx.db, this.build, KEEP_EARLIER_IMAGES);
    for (const image of older) {
      try {
        const { removed } = await this.peer().request(
          'image.remove',
          { reference: image },
          REMOVE_TIMEOUT_MS,
        );
        if (removed) this.line(`Removed the older image ${image}`);
      } catch (error) {
        this.line(`Kept the older image ${image}: ${reasonOf(error)}`);
      }
    }
  }

  /** The build container goes, whatever happened; a failure to remove it is logged, not fatal. */
  private async removeContainer(): Promise<void> {
    if (this.containerId === null) return;
    try {
      await this.peer().request(
        'container.remove',
        { containerId: this.containerId, force: true },
        REMOVE_TIMEOUT_MS,
      );
      this.line('Removed the build container');
    } catch (error) {
      this.line(`Could not remove the build container ${this.containerId}: ${reasonOf(error)}`);
    }
  }
}

/** Runs the build on its node's agent (from its job, see ./jobs.ts). */
export function runBuild(
  ctx: AppContext,
  build: ImageBuildRow,
  project: ProjectRow,
  agent: ConnectedAgent,
): Promise<void> {
  return new BuildRun(ctx, build, project, agent).run();
}
