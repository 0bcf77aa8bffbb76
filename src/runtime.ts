import { createFileStorage } from './content/files/service.js';
import type { FileStorage } from './content/files/storage.js';
import { IdentityProviders } from './content/identity/provider.js';
import { EventFeeds } from './events/feeds.js';
import type { EventSinks } from './events/writer.js';
import type { AppBase, AppModule } from './module.js';
import { FollowerQuota } from './platform/common/follower-quota.js';
import type { LogFeeds } from './platform/common/log-feeds.js';
import { BuildActivity } from './platform/image-builds/activity.js';
import { createBuildFeeds } from './platform/image-builds/follow.js';
import { JobKinds } from './platform/job-queue/kinds.js';
import { JobRunner } from './platform/job-queue/runner.js';
import { createRunFeeds } from './platform/job-runs/follow.js';
import { AgentRegistry } from './platform/nodes/registry.js';
import { GrantCache } from './platform/service-access/grant-cache.js';
import { WorkerLifecycle } from './platform/workers/lifecycle.js';

/**
 * What one app holds in memory: built once, by `buildRuntime`, and carried
 * by its context. Nothing here is module-level, so the apps a process builds
 * (tests build many) share none of it; what several processes share goes
 * through PostgreSQL.
 */
export interface AppRuntime {
  /** The modules' event sinks, run by every events write of this app (`events/writer.ts`). */
  eventSinks: EventSinks;
  /** The event-log readers of the live streams, one per workspace followed (`events/feeds.ts`). */
  eventFeeds: EventFeeds;
  /** The agents connected to this process (`platform/nodes`). */
  agents: AgentRegistry;
  jobs: {
    /** The job kinds the modules register (`platform/job-queue/kinds.ts`). */
    kinds: JobKinds;
    /** Claims and runs the jobs; started and stopped by the jobs module. */
    runner: JobRunner;
  };
  /** Granted service-access decisions (`platform/service-access/grant-cache.ts`). */
  grants: GrantCache;
  /** Log sockets open per caller (`platform/common/follower-quota.ts`). */
  followers: FollowerQuota;
  /** The job-run log readers, one per run followed (`platform/job-runs/follow.ts`). */
  runFeeds: LogFeeds;
  builds: {
    /** Image-build changes made in this process (`platform/image-builds/activity.ts`). */
    activity: BuildActivity;
    /** The image-build log readers, one per build followed. */
    feeds: LogFeeds;
  };
  /** The workers' moves, run as jobs (`platform/workers/lifecycle.ts`). */
  workers: WorkerLifecycle;
  /** The OpenID providers discovered (`content/identity/provider.ts`). */
  identityProviders: IdentityProviders;
  /** Where file bytes go (`FILES_DIR`). */
  files: FileStorage;
}

/**
 * Builds an app's runtime parts. Nothing starts here: the runner is started
 * by the jobs module, the grant cache listens from its first use and the log
 * readers while they have followers, as before.
 */
export function buildRuntime(base: AppBase, modules: readonly AppModule[]): AppRuntime {
  const agents = new AgentRegistry();
  const kinds = new JobKinds();
  const activity = new BuildActivity();
  return {
    // A sink listed by two modules (or a module listed twice) runs once.
    eventSinks: [...new Set(modules.flatMap((module) => module.eventSinks ?? []))],
    eventFeeds: new EventFeeds({
      db: base.db,
      listener: base.listener,
      log: base.log,
      followersPerCaller: base.config.logFollowersPerCaller,
    }),
    agents,
    jobs: { kinds, runner: new JobRunner(base, agents, kinds) },
    grants: new GrantCache(),
    followers: new FollowerQuota(base.config.logFollowersPerCaller),
    runFeeds: createRunFeeds(base),
    builds: { activity, feeds: createBuildFeeds(base, activity) },
    workers: new WorkerLifecycle(base, agents, kinds),
    identityProviders: new IdentityProviders(),
    files: createFileStorage(base.config),
  };
}
