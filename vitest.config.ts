import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite in five tiers, each a Vitest project, decided by what a test
 * file uses (so a new file lands in the right tier by itself):
 * - `engine`: a real container engine (imports test/helpers/engine);
 * - `browser`: the built web app in Chromium against a listening server
 *   (imports test/helpers/browser; the files are in e2e/);
 * - `http`: the whole application over inject or real sockets (imports the
 *   app or platform helpers), or the `sparrow` command run as a process;
 * - `db`: services against a real database, without the HTTP layer
 *   (imports test/helpers/database or test/fixtures/database), and pure
 *   tests that take seconds (`*.slow.test.ts`), kept out of the unit tier;
 * - `unit`: the rest, pure functions, in seconds (`npm run test:unit`).
 */
type Tier = 'unit' | 'db' | 'http' | 'engine' | 'browser';

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts'))
    .map((path) => join(folder, path));
}

function tierOf(path: string): Tier {
  const source = readFileSync(path, 'utf8');
  // A browser test may drive the engine too (LOCAL_AGENT): it needs the web app built first.
  if (/helpers\/browser\.js/.test(source)) return 'browser';
  if (/helpers\/engine\.js|fixtures\/container\.js/.test(source)) return 'engine';
  if (
    /helpers\/(app|platform|nodes|factories|sparrow-process)\.js|fixtures\/(app|workspace|org|job-runs|oidc)\.js|src\/main\.ts/.test(
      source,
    )
  )
    return 'http';
  if (/helpers\/database\.js|fixtures\/database\.js/.test(source) || path.endsWith('.slow.test.ts'))
    return 'db';
  return 'unit';
}

const tiers: Record<Tier, string[]> = { unit: [], db: [], http: [], engine: [], browser: [] };
for (const path of [
  ...testFiles('src'),
  ...testFiles('test'),
  ...testFiles('e2e'),
  ...testFiles('web/src'),
  ...testFiles('packages/client/src'),
])
  tiers[tierOf(path)].push(path);

const DATABASE_SETUP = ['test/global-setup.ts'];
/** The database, and `sparrow` bundled for the tests that start it as a process. */
const PROCESS_SETUP = [...DATABASE_SETUP, 'test/command-setup.ts'];
/** As PROCESS_SETUP (a test may start an agent), and the web app built (once, when missing or stale) for Chromium to load. */
const BROWSER_SETUP = [...PROCESS_SETUP, 'test/web-setup.ts'];

/**
 * Files that start processes (the `sparrow` command, an agent) take the
 * longest: start them first, whatever their tier, so the run does not end
 * waiting on one of them. Vitest's own order (by the last run's durations,
 * else by size, one project after another) holds within each rank; a clean
 * clone, as in CI, has no durations yet.
 */
function startsProcesses(path: string): boolean {
  return /node:child_process|helpers\/sparrow-process\.js/.test(readFileSync(path, 'utf8'));
}

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => (startsProcesses(file.moduleId) ? 0 : 1);
    return sorted
      .map((file, index) => ({ file, index, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    pool: 'forks',
    // Transformed modules are kept on disk between runs (keyed by their content),
    // which spares most of each run's transform time.
    experimental: { fsModuleCache: true },
    // A worker runs many files without re-importing the application for each
    // (module state is per app instance; nothing in a test file may rely on a
    // fresh module). Tests mostly wait on I/O (engine, sockets, timers), so
    // the default of one worker per core but one leaves this machine idle.
    isolate: false,
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: SlowFirst },
    // An unhandled rejection or error anywhere fails the run (the default, kept on purpose); a
    // `sparrow serve` child that dies on its own throws one (test/helpers/sparrow-process.ts).
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      { extends: true, test: { name: 'unit', include: tiers.unit } },
      { extends: true, test: { name: 'db', include: tiers.db, globalSetup: DATABASE_SETUP } },
      { extends: true, test: { name: 'http', include: tiers.http, globalSetup: PROCESS_SETUP } },
      {
        extends: true,
        // One file at a time: the files share one container engine. Agents now
        // recover only their own node's containers (labelled sparrow.node), so
        // they no longer detach each other's terminals; running this tier in
        // parallel again waits on repeated parallel runs of the whole tier
        // (the files also measure and time out on a shared engine).
        test: {
          name: 'engine',
          include: tiers.engine,
          globalSetup: PROCESS_SETUP,
          fileParallelism: false,
          // A project with its own worker count runs as a group of its own: after the others.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // One file at a time: each file runs a Chromium (a few hundred MB and
        // a core while it renders) beside its server. In the engine tier's
        // group (same order, one worker), after the parallel tiers.
        test: {
          name: 'browser',
          include: tiers.browser,
          globalSetup: BROWSER_SETUP,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
