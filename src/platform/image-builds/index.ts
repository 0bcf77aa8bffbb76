import type { AppModule } from '../../module.js';
import { imageBuildsMigrations } from './migrations.js';
import './tables.js';

export const imageBuildsModule: AppModule = {
  name: 'image-builds',
  migrations: imageBuildsMigrations,
};
