import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DB } from '../../db/schema.js';
import { modules } from '../../modules.js';

describe('GET /health', () => {
  const t = useApp();

  it('answers 200 with the database reachable on both roots, without credentials', async () => {
    for (const client of [t.http, t.api]) {
      const response = await client.get('/health');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        status: 'ok',
        version: '0.1.0',
        database: { kind: t.dbKind, reachable: true, latencyMs: expect.any(Number) },
      });
    }
  });
});

describe('GET /health with the database gone', () => {
  it('answers 503 with the database unreachable', async () => {
    // A pool aimed at a port where no database listens.
    const pool = new pg.Pool({
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      connectionTimeoutMillis: 500,
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const { app } = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db,
      dbKind: 'postgres',
      modules,
    });
    try {
      for (const url of ['/health', '/api/health']) {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({
          status: 'unavailable',
          database: { kind: 'postgres', reachable: false, latencyMs: null },
        });
      }
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
