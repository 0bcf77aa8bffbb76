import type { AppModule } from '../../module.js';
import { jobsMigrations } from './migrations.js';
import './tables.js';

/** The control plane's job rows and the runner that carries them out (no routes). */
export const jobsModule: AppModule = {
  name: 'jobs',
  migrations: jobsMigrations,
  platformRoutes: (router, ctx) => {
    const runner = ctx.jobs.runner;
    runner.start();
    router.addHook('onClose', async () => {
      // Closing the agents ends the requests of the jobs under way: they are handed back.
      ctx.agents.closeAll();
      await runner.stop();
    });
  },
};
