import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { wrapPglite } from '../db/connect.js';
import { modules } from '../modules.js';

/** The settings the committed description is made with, whatever the machine's environment. */
export const CONTRACT_ENV = { LOG_LEVEL: 'silent' };

export interface ApiDescription {
  paths?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The API description as the server serves it with the default settings.
 * Building routes reads no table, so an empty in-memory database will do.
 */
export async function describedApi(): Promise<ApiDescription> {
  const handle = wrapPglite(await PGlite.create());
  try {
    const { app } = await buildApp({
      config: loadConfig(CONTRACT_ENV),
      db: handle.db,
      dbKind: handle.kind,
      modules,
    });
    try {
      return app.swagger() as ApiDescription;
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
  }
}

/** The digest the generated types record of the description they were made from. */
export function contractDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
