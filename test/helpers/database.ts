import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '../../src/db/connect.js';
import { adminUrl, databaseUrl, TEST_DATABASE_PREFIX } from './postgres.js';

let snapshot: Blob | undefined;

async function pgliteFromSnapshot(path: string): Promise<DatabaseHandle> {
  snapshot ??= new Blob([await readFile(path)]);
  const pglite = await PGlite.create({ loadDataDir: snapshot });
  return wrapPglite(pglite);
}

async function postgresFromTemplate(
  serverUrl: string,
  template: string,
  runId: string,
): Promise<DatabaseHandle> {
  const name = `${TEST_DATABASE_PREFIX}${runId}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
  await admin.connect();
  try {
    // Two copies of one template at the same instant can collide; retry briefly.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const handle = await connectPostgres({ url: databaseUrl(serverUrl, name), poolSize: 10 });
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl(serverUrl) });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

/** A fresh, migrated database of the kind this run tests (PGlite unless TEST_DATABASE_URL). */
export function createTestDatabase(): Promise<DatabaseHandle> {
  const target = inject('testDatabase');
  return target.kind === 'pglite'
    ? pgliteFromSnapshot(target.snapshotPath)
    : postgresFromTemplate(target.serverUrl, target.template, target.runId);
}
