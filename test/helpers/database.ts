import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '../../src/db/connect.js';
import { adminUrl, databaseUrl, TEST_DATABASE_PREFIX } from './postgres.js';

let snapshot: Blob | undefined;

/**
 * PGlite databases this worker has finished with, emptied for the next test
 * file: loading the snapshot starts a database in about 0.4 s of CPU,
 * emptying one takes about 0.1 s. An instance is reused only when it is
 * exactly as the snapshot made it apart from rows (same tables, indexes and
 * functions, no transaction open); otherwise it is closed.
 */
const idle: PGlite[] = [];
let shape: string | undefined;

/** The schema objects of `public`, to tell that a test changed none. */
async function shapeOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ shape: string }>(
    `select string_agg(relkind::text || ':' || relname, ',' order by relname) as shape
       from pg_class where relnamespace = 'public'::regnamespace`,
  );
  const { rows: functions } = await pglite.query<{ count: number }>(
    `select count(*)::int as count from pg_proc where pronamespace = 'public'::regnamespace`,
  );
  return `${rows[0]?.shape ?? ''};${functions[0]?.count ?? 0}`;
}

async function empty(pglite: PGlite): Promise<void> {
  const { rows } = await pglite.query<{ name: string }>(
    `select quote_ident(relname) as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
        and relname not like 'kysely_migration%'`,
  );
  await pglite.exec(
    `unlisten *; reset all; truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade`,
  );
}

async function release(pglite: PGlite): Promise<void> {
  const reusable = !pglite.closed && !pglite.isInTransaction() && (await shapeOf(pglite)) === shape;
  if (!reusable) return pglite.close();
  await empty(pglite);
  idle.push(pglite);
}

async function pgliteFromSnapshot(path: string): Promise<DatabaseHandle> {
  let pglite = idle.pop();
  if (pglite === undefined) {
    snapshot ??= new Blob([await readFile(path)]);
    pglite = await PGlite.create({ loadDataDir: snapshot });
    shape ??= await shapeOf(pglite);
  }
  // The handle's Kysely is not destroyed (that would close the instance).
  const { db, kind, notifications } = wrapPglite(pglite);
  const instance = pglite;
  return { db, kind, notifications, close: () => release(instance) };
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
