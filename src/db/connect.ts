import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { type NotificationSource, pgliteNotifications, postgresNotifications } from './listen.js';
import { DatabaseLockedError, type HeldLock, lockDatabase } from './pglite-lock.js';
import { prepareMarkedStatements } from './prepared.js';
import type { Database, DB } from './schema.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The PostgreSQL connection string (a listener opens its own connection with it). */
  url?: string;
  close(): Promise<void>;
  /** The PostgreSQL pool's counters, for the metrics; absent on PGlite (one connection). */
  pool?: PoolCounters;
  /** A source of LISTEN/NOTIFY notifications of its own (one per app: `db/listen.ts`). */
  notifications?: () => NotificationSource;
}

export interface PoolCounters {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

const INT8_OID = 20;

/** int8 (counts, sums) as a JavaScript number, as PGlite returns it. */
function parseInt8(value: string): number {
  return Number(value);
}

export interface PostgresOptions {
  url: string;
  poolSize: number;
}

function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const database = parsed.pathname.replace(/^\//, '') || '(default)';
    return `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
  } catch {
    return 'the configured server';
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
    return `${error.message}${code}`;
  }
  return String(error);
}

export async function connectPostgres(options: PostgresOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: 10_000,
    types: {
      getTypeParser: (oid, format) =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format),
    },
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareMarkedStatements);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const handle: DatabaseHandle = {
    db,
    kind: 'postgres',
    url: options.url,
    close: () => db.destroy(),
    pool,
    notifications: () => postgresNotifications(options.url),
  };
  try {
    const { rows } = await sql<{
      version: number;
    }>`select current_setting('server_version_num')::int as version`.execute(db);
    const version = rows[0]?.version ?? 0;
    if (version < 150000) {
      throw new DatabaseUnavailableError(
        `PostgreSQL 15 or newer is required; ${describeTarget(options.url)} runs ${version}`,
      );
    }
  } catch (error) {
    await handle.close().catch(() => {});
    if (error instanceof DatabaseUnavailableError) throw error;
    throw new DatabaseUnavailableError(
      `Cannot connect to PostgreSQL at ${describeTarget(options.url)}: ${reason(error)}`,
      { cause: error },
    );
  }
  return handle;
}

/** Wraps an existing PGlite instance (tests load one from a migrated snapshot). */
export function wrapPglite(pglite: PGlite): DatabaseHandle {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    close: () => db.destroy(),
    notifications: () => pgliteNotifications(pglite),
  };
}

/**
 * Opens (or creates) the embedded database stored in `dataDir/pglite`,
 * holding `dataDir/pglite.lock` until it is closed: another process is
 * refused at once (`pglite-lock.ts`).
 */
export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const path = join(dataDir, 'pglite');
  let lock: HeldLock | undefined;
  try {
    await mkdir(path, { recursive: true });
    lock = await lockDatabase(join(dataDir, 'pglite.lock'), path);
    const pglite = await PGlite.create(path);
    const handle = wrapPglite(pglite);
    const held = lock;
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await held.release();
      },
    };
  } catch (error) {
    await lock?.release();
    if (error instanceof DatabaseLockedError) {
      throw new DatabaseUnavailableError(error.message, { cause: error });
    }
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${path}: ${reason(error)}`,
      { cause: error },
    );
  }
}

export function openDatabase(options: {
  databaseUrl: string | null;
  databasePoolSize: number;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl !== null) {
    return connectPostgres({ url: options.databaseUrl, poolSize: options.databasePoolSize });
  }
  return openPglite(options.dataDir);
}
