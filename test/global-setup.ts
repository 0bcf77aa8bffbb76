import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
  if (serverUrl === undefined || serverUrl === '') {
    const pglite = await PGlite.create();
    const handle = wrapPglite(pglite);
    await migrateToLatest(handle.db, allMigrations);
    const snapshot = await pglite.dumpDataDir('none');
    await handle.close();
    const folder = await mkdtemp(join(tmpdir(), 'sparrow-test-'));
    const snapshotPath = join(folder, 'snapshot.tar');
    await writeFile(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
    cleanup = () => rm(folder, { recursive: true, force: true });
    return { kind: 'pglite', snapshotPath };
  }
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
