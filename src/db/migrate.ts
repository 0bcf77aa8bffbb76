import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from './schema.js';

export type Migrations = Readonly<Record<string, Migration>>;

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/**
 * Merges the modules' migrations into one set. Names start with a date and a
 * sequence (`2026_11_21_001_accounts`) so that the alphabetical order Kysely
 * applies them in is the order they were written in.
 */
export function mergeMigrations(sets: readonly Migrations[]): Migrations {
  const merged: Record<string, Migration> = {};
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (name in merged) throw new MigrationError(`Migration "${name}" is defined twice`);
      merged[name] = migration;
    }
  }
  return merged;
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(
  db: Database,
  migrations: Migrations,
): Promise<MigrationReport> {
  const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error !== undefined) {
    const where = failed ? ` in migration "${failed.migrationName}"` : '';
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Database migration failed${where}: ${detail}`, { cause: error });
  }
  return {
    applied: results
      .filter((result) => result.status === 'Success')
      .map((result) => result.migrationName),
  };
}
