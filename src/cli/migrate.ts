import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { allMigrations } from '../modules.js';

export async function migrate(config: Config): Promise<void> {
  const database = await openDatabase(config);
  try {
    const { applied } = await migrateToLatest(database.db, allMigrations);
    const where =
      database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
    process.stdout.write(
      applied.length === 0
        ? `${where}: already up to date\n`
        : `${where}: applied ${applied.length} migration(s)\n${applied.map((name) => `  ${name}\n`).join('')}`,
    );
  } finally {
    await database.close();
  }
}
