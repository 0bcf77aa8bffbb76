import type { AppModule } from '../../module.js';
import { agentRegistry } from '../nodes/registry.js';
import { jobsMigrations } from './migrations.js';
import { jobRunner } from './runner.js';
import './tables.js';

/** The control plane's job rows and the runner that carries them out (no routes). */
export const jobsModule: AppModule = {
  name: 'jobs',
  migrations: jobsMigrations,
  platformRoutes: (router, ctx) => {
    const runner = jobRunner(ctx);
    runner.start();
    router.addHook('onClose', async () => {
      // Closing the agents ends the requests of the jobs under way: they are handed back.
      agentRegistry(ctx).closeAll();
      await runner.stop();
    });
  },
};
