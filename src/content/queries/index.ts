import type { AppModule } from '../../module.js';
import { backfillItemValues } from './item-values-backfill.js';
import { queriesMigrations } from './migrations.js';
import { buildPendingPropertyIndexes } from './property-indexes.js';
import { queryRoutes } from './routes.js';
import './tables.js';

const INDEX_POLL_MS = 2000;

export const queriesModule: AppModule = {
  name: 'queries',
  migrations: queriesMigrations,
  contentRoutes: queryRoutes,
  /** Builds requested property indexes and fills the narrow values of new fields, in the background. */
  async background(ctx) {
    let stopped = false;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      if (stopped) return;
      running = buildPendingPropertyIndexes(ctx.db)
        .catch((error: unknown) => ctx.log.error({ err: error }, 'property index build failed'))
        .then(() => backfillItemValues(ctx.db))
        .catch((error: unknown) => ctx.log.error({ err: error }, 'item values backfill failed'))
        .finally(() => {
          if (!stopped) timer = setTimeout(tick, INDEX_POLL_MS);
        });
    };
    let timer = setTimeout(tick, 0);
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    };
  },
};
