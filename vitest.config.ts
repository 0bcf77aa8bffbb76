import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The suite in four tiers, each a Vitest project, decided by what a test
 * file uses (so a new file lands in the right tier by itself):
 * - `engine`: a real container engine (imports test/helpers/engine);
 * - `http`: the whole application over inject or real sockets (imports the
 *   app or platform helpers), or the `sparrow` command run as a process;
 * - `db`: services against a real database, without the HTTP layer
 *   (imports test/helpers/database);
 * - `unit`: the rest, pure functions, in seconds (`npm run test:unit`).
 */
type Tier = 'unit' | 'db' | 'http' | 'engine';

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts'))
    .map((path) => join(folder, path));
}

function tierOf(path: string): Tier {
  const source = readFileSync(path, 'utf8');
  if (/helpers\/engine\.js/.test(source)) return 'engine';
  if (/helpers\/(app|platform|nodes|factories|sparrow-process)\.js|src\/main\.ts/.test(source))
    return 'http';
  if (/helpers\/database\.js/.test(source)) return 'db';
  return 'unit';
}

const tiers: Record<Tier, string[]> = { unit: [], db: [], http: [], engine: [] };
for (const path of [...testFiles('src'), ...testFiles('test')]) tiers[tierOf(path)].push(path);

const DATABASE_SETUP = ['test/global-setup.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // A worker runs many files without re-importing the application for each
    // (module state is per app instance; nothing in a test file may rely on a
    // fresh module). Tests mostly wait on I/O (engine, sockets, timers), so
    // the default of one worker per core but one leaves this machine idle.
    isolate: false,
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: tiers.unit } },
      { extends: true, test: { name: 'db', include: tiers.db, globalSetup: DATABASE_SETUP } },
      { extends: true, test: { name: 'http', include: tiers.http, globalSetup: DATABASE_SETUP } },
      {
        extends: true,
        test: { name: 'engine', include: tiers.engine, globalSetup: DATABASE_SETUP },
      },
    ],
  },
});
