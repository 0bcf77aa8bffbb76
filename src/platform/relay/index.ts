import { randomBytes } from 'node:crypto';
import type { AppModule } from '../../module.js';
import { relayMigrations } from './migrations.js';
import {
  clusterSecret,
  defaultInternalUrl,
  HEARTBEAT_MS,
  heartbeat,
  registerProcess,
  unregisterProcess,
} from './processes.js';
import { RemoteAgents } from './remote.js';
import { relayRoute } from './route.js';
import './tables.js';

/**
 * Any server process reaches any agent: each process records itself (id,
 * internal URL, heartbeat) and the agents it holds; a live request for an
 * agent held elsewhere goes through the holder's relay.
 */
export const relayModule: AppModule = {
  name: 'relay',
  migrations: relayMigrations,
  platformRoutes: (router, ctx) => {
    const registry = ctx.agents;
    const self = registry.processId;
    const generated = randomBytes(32).toString('base64url');
    let secret: Promise<string> | undefined;
    const getSecret = () => {
      secret ??= clusterSecret(ctx, generated);
      secret.catch(() => {
        secret = undefined;
      });
      return secret;
    };
    const remote = new RemoteAgents(ctx, self, getSecret);
    // Known before listening when configured: jobs may be claimed (and reach agents) before then.
    remote.selfUrl = ctx.config.internalUrl;
    registry.remote = (nodeId) => remote.reach(nodeId);
    const warn = (what: string) => (error: unknown) => ctx.log.warn({ err: error }, what);

    // The agents this process holds are recorded on their nodes' rows (nodes/connect-route).

    let timer: NodeJS.Timeout | undefined;
    router.addHook('onListen', async () => {
      const url = ctx.config.internalUrl ?? defaultInternalUrl(router.server.address());
      if (url === null) return;
      remote.selfUrl = url;
      const predecessors = await registerProcess(ctx.db, self, url);
      if (predecessors.length > 0) {
        ctx.log.info(
          { predecessors, url },
          'took over from a server process recorded at this internal URL (it is gone)',
        );
      }
      timer = setInterval(() => {
        heartbeat(ctx.db, self).catch(warn('could not record the heartbeat'));
      }, HEARTBEAT_MS);
      timer.unref();
    });
    router.addHook('onClose', async () => {
      clearInterval(timer);
      remote.closeAll();
      await unregisterProcess(ctx.db, self).catch(warn('could not unregister the process'));
    });
    relayRoute(router, ctx, getSecret);
  },
};
