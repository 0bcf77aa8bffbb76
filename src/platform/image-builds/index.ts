import type { AppModule } from '../../module.js';
import { buildActivity } from './activity.js';
import { imageBuildsMigrations } from './migrations.js';
import { recoverInterruptedBuilds } from './recovery.js';
import { imageBuildRoutes } from './routes.js';
import './tables.js';

export const imageBuildsModule: AppModule = {
  name: 'image-builds',
  migrations: imageBuildsMigrations,
  platformRoutes: async (router, ctx) => {
    const activity = buildActivity(ctx);
    // A build is never cut off half-written: closing waits for those running.
    router.addHook('onClose', () => activity.drain());
    recoverInterruptedBuilds(ctx);
    imageBuildRoutes(router, ctx);
  },
};
