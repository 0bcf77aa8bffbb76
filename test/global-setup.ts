import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { connectPostgres, wrapPglite } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { allMigrations } from '../src/modules.js';
import { adminUrl, databaseUrl, TEST_DATABASE_PREFIX } from './helpers/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase:
      | { kind: 'pglite'; snapshotPath: string }
      | { kind: 'postgres'; serverUrl: string; template: string; runId: string };
  }
}

type TestDatabase = ProvidedContext['testDatabase'];

let prepared: Promise<TestDatabase> | undefined;
let users = 0;
let cleanup: () => Promise<void> = async () => {};

/**
 * Migrates one database for the whole run, shared by every project (tier)
 * that needs one: a PGlite snapshot that every test file loads, or a
 * PostgreSQL template database every test file copies.
 */
export async function setup(project: TestProject): Promise<void> {
  users += 1;
  prepared ??= prepare();
  project.provide('testDatabase', await prepared);
}

export async function teardown(): Promise<void> {
  users -= 1;
  if (users === 0) await cleanup();
}

async function prepare(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl === undefined || serverUrl === '')
    return { kind: 'pglite', snapshotPath: await pgliteSnapshot() };
  const runId = randomBytes(4).toString('hex');
  const template = `${TEST_DATABASE_PREFIX}${runId}_template`;
  const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  const handle = await connectPostgres({ url: databaseUrl(serverUrl, template), poolSize: 2 });
  await migrateToLatest(handle.db, allMigrations);
  await handle.close();
  cleanup = async () => {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${TEST_DATABASE_PREFIX}${runId}_%`],
    );
    for (const row of rows)
      await admin.query(`drop database if exists "${row.datname}" with (force)`);
    await admin.end();
  };
  return { kind: 'postgres', serverUrl, template, runId };
}

const SNAPSHOT_FOLDER = join('node_modules', '.cache', 'sparrow-tests');

/**
 * What the migrated PGlite snapshot depends on: every migration file (they
 * import nothing of the application), the migrator, the module list and the
 * PGlite version.
 */
async function snapshotKey(): Promise<string> {
  const hash = createHash('sha256');
  const sources = (await readdir('src', { recursive: true, encoding: 'utf8' }))
    .filter((path) => /(^|\/)migrations(\.ts$|\/)/.test(path) && path.endsWith('.ts'))
    .map((path) => join('src', path));
  for (const path of [...sources.sort(), 'src/db/migrate.ts', 'src/modules.ts'])
    hash
      .update(path)
      .update('\0')
      .update(await readFile(path))
      .update('\0');
  hash.update(await readFile(join('node_modules', '@electric-sql', 'pglite', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of a PGlite database migrated to the latest version, kept between
 * runs under node_modules/.cache while its migrations are unchanged: creating
 * an empty PGlite database takes most of the time of a migration from
 * scratch, several seconds, which every run would pay again.
 */
async function pgliteSnapshot(): Promise<string> {
  const path = join(SNAPSHOT_FOLDER, `pglite-${await snapshotKey()}.tar`);
  const kept = await stat(path).catch(() => undefined);
  if (kept?.isFile()) return path;
  const pglite = await PGlite.create();
  const handle = wrapPglite(pglite);
  await migrateToLatest(handle.db, allMigrations);
  const snapshot = await pglite.dumpDataDir('none');
  await handle.close();
  await mkdir(SNAPSHOT_FOLDER, { recursive: true });
  // Written aside and renamed, so that a run started meanwhile never reads half a file.
  const partial = `${path}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, Buffer.from(await snapshot.arrayBuffer()));
  await rename(partial, path);
  return path;
}
