import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildPendingPropertyIndexes } from '../src/content/queries/property-indexes.js';
import { connectPostgres, type DatabaseHandle, wrapPglite } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { allMigrations, modules } from '../src/modules.js';
import { seedItems } from './seed.js';
import { BENCH_POSTGRES_URL, machine, recreatePostgresDatabase } from './server.js';
import { bareSql } from './views-sql.js';

/**
 * The views engine at scale: one list of N cards (default 1,000,000 on
 * PostgreSQL, 50,000 on PGlite), timed through the full HTTP stack in
 * process (fastify inject: routing, auth, validation, serialization).
 */

const DATABASE = (process.env.BENCH_DATABASE ?? 'postgres') as 'postgres' | 'pglite';
const CARDS = Number(process.env.BENCH_CARDS ?? (DATABASE === 'postgres' ? 1_000_000 : 50_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DEPTH = Number(process.env.BENCH_DEPTH ?? 10_000);
const PAGE = 50;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 100) / 100;
}

async function timed(runs: number, work: (run: number) => Promise<void>) {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work(run);
    samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), runs };
}

async function openDatabase(): Promise<DatabaseHandle & { cleanup(): Promise<void> }> {
  if (DATABASE === 'postgres') {
    const url = BENCH_POSTGRES_URL.replace(/sparrow_bench$/, 'sparrow_bench_views');
    await recreatePostgresDatabase(url);
    const handle = await connectPostgres({ url, poolSize: 10 });
    return { ...handle, cleanup: async () => {} };
  }
  const folder = await mkdtemp(join(tmpdir(), 'sparrow-bench-views-'));
  const handle = wrapPglite(await PGlite.create(folder));
  return { ...handle, cleanup: () => rm(folder, { recursive: true, force: true }) };
}

const database = await openDatabase();
await migrateToLatest(database.db, allMigrations);
const { app } = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'warn', REGISTRATION_MODE: 'open', DATA_DIR: tmpdir() }),
  db: database.db,
  dbKind: database.kind,
  modules,
  notifications: database.notifications,
});

async function call(
  method: 'GET' | 'POST',
  url: string,
  token: string | undefined,
  body?: unknown,
) {
  const response = await app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

const log = (message: string) => process.stderr.write(`${message}\n`);
const register = (index: number) =>
  call('POST', '/auth/register', undefined, {
    email: `bench${index}@example.test`,
    password: 'benchmark password',
    name: `Bench ${index}`,
  });
const owner = await register(0);
const token = owner.token as string;
const workspace = await call('POST', '/workspaces', token, { name: 'Bench', slug: 'bench' });
const ws = `/workspaces/${workspace.id}`;
const ownerIds = [owner.user.id as string];
for (let index = 1; index <= 4; index++) {
  const member = await register(index);
  await call('POST', `${ws}/members`, token, { email: member.user.email, role: 'member' });
  ownerIds.push(member.user.id);
}
const field = (body: Record<string, unknown>) => call('POST', `${ws}/fields`, token, body);
const options = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => ({ label: `${prefix} ${index}`, color: '#336699' }));
const stage = await field({
  key: 'stage',
  type: 'select',
  name: 'Stage',
  config: { options: options(10, 'Stage') },
});
const tags = await field({
  key: 'tags',
  type: 'multi_select',
  name: 'Tags',
  config: { options: options(6, 'Tag') },
});
const points = await field({ key: 'points', type: 'number', name: 'Points' });
const due = await field({ key: 'due', type: 'date', name: 'Due' });
await field({ key: 'owner', type: 'person', name: 'Owner' });
const list = await call('POST', `${ws}/collections`, token, { name: 'Bench', keyPrefix: 'BENCH' });
const statusIds = (await call('GET', `${ws}/statuses`, token)).map(
  (status: { id: string }) => status.id,
);
await buildPendingPropertyIndexes(database.db);

const seedStarted = performance.now();
await seedItems(
  database.db,
  {
    workspaceId: workspace.id,
    collectionId: list.id,
    createdBy: owner.user.id,
    statusIds,
    stageOptions: stage.config.options.map((option: { id: string }) => option.id),
    tagOptions: tags.config.options.map((option: { id: string }) => option.id),
    ownerIds,
    count: CARDS,
  },
  (done) => log(`seeded ${done} cards`),
);
// A running server's autovacuum does this on its own; a bulk seed outruns it.
await sql`vacuum analyze items, item_values`.execute(database.db);
const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
log(`seeded in ${seedSeconds} s`);

const listUrl = `${ws}/collections/${list.id}`;
const stageIds: string[] = stage.config.options.map((option: { id: string }) => option.id);
const pageDefinition = {
  filter: {
    and: [
      { fieldId: stage.id, op: 'in', value: stageIds.slice(0, 8) },
      { fieldId: points.id, op: 'gte', value: 10 },
    ],
  },
  sort: [{ fieldId: due.id, direction: 'desc' }],
};
const query = (cursor?: string) =>
  call('POST', `${listUrl}/query`, token, {
    definition: pageDefinition,
    limit: PAGE,
    ...(cursor ? { cursor } : {}),
  });

const loadBefore = loadavg();
const bare = await bareSql(database.db, workspace.id, list.id);
/** The API figure and the bare SQL figure of one case, timed in alternation in the same run. */
async function sideBySide(
  runs: number,
  api: () => Promise<unknown>,
  sqlAlone: () => Promise<unknown>,
) {
  // Warm caches and plans the way a running server has them, then time.
  for (let run = 0; run < 5; run++) {
    await api();
    await sqlAlone();
  }
  const apiSamples = await timed(runs, async () => {
    await api();
  });
  const sqlSamples = await timed(runs, async () => {
    await sqlAlone();
  });
  return {
    api: apiSamples,
    sql: sqlSamples,
    ratio: Math.round((apiSamples.p50 / sqlSamples.p50) * 100) / 100,
  };
}

const firstPage = await sideBySide(
  RUNS,
  () => query(),
  () => bare.page(pageDefinition, PAGE),
);

log(`walking ${DEPTH} pages`);
let cursor: string | undefined;
let depth = 0;
const walkStarted = performance.now();
while (depth < DEPTH) {
  const page = await query(cursor);
  if (page.nextCursor === null) break;
  cursor = page.nextCursor;
  depth += 1;
}
const walkSeconds = Math.round((performance.now() - walkStarted) / 100) / 10;
const deepCursor = cursor;
const deepPage = await sideBySide(
  RUNS,
  () => query(deepCursor),
  () => bare.page(pageDefinition, PAGE, deepCursor),
);

const byStatus = { groupBy: { attribute: 'statusId' } };
const countsByStatus = await sideBySide(
  RUNS,
  () => call('POST', `${listUrl}/group-counts`, token, { definition: byStatus }),
  () => bare.counts(byStatus),
);
const byStage = { groupBy: { fieldId: stage.id } };
const countsBySelect = await sideBySide(
  RUNS,
  () => call('POST', `${listUrl}/group-counts`, token, { definition: byStage }),
  () => bare.counts(byStage),
);
const groupedQuery = await sideBySide(
  RUNS,
  () =>
    call('POST', `${listUrl}/grouped-query`, token, {
      definition: byStage,
      groups: stageIds,
      limit: PAGE,
    }),
  () => bare.kanban(byStage, stageIds, PAGE),
);
const search = await sideBySide(
  RUNS,
  () => call('GET', `${ws}/search?q=needle&limit=${PAGE}`, token),
  () => bare.search('needle', PAGE),
);
const window = (run: number) => {
  const from = (run * 5000) % Math.max(1, CARDS - 5000);
  return {
    and: [
      { attribute: 'number', op: 'gt', value: from },
      { attribute: 'number', op: 'lte', value: from + 5000 },
    ],
  };
};
const bulkPreview = await timed(RUNS, async (run) => {
  await call('POST', `${listUrl}/bulk-preview`, token, { definition: { filter: window(run) } });
});
const bulkRuns = Math.min(5, Math.floor(CARDS / 5000));
let changed = 0;
const bulkUpdate = await timed(bulkRuns, async (run) => {
  const result = await call('POST', `${listUrl}/bulk-update`, token, {
    definition: { filter: window(run) },
    patch: { properties: { points: 1000 + run } },
    expectedCount: 5000,
  });
  changed = result.changed;
});

process.stdout.write(
  `${JSON.stringify(
    {
      benchmark: 'views',
      database: DATABASE,
      cards: CARDS,
      machine: machine(),
      seedSeconds,
      loadAverage: {
        before: loadBefore.map((value) => Math.round(value * 10) / 10),
        after: loadavg().map((value) => Math.round(value * 10) / 10),
      },
      latencyMs: {
        firstPage,
        deepPage: { ...deepPage, depthPages: depth, walkSeconds },
        groupCountsByStatus: countsByStatus,
        groupCountsBySelect: countsBySelect,
        groupedQuery10Columns: groupedQuery,
        search1PercentOfTitles: search,
        bulkPreview5000: bulkPreview,
        bulkUpdate5000: { ...bulkUpdate, changedPerRun: changed },
      },
      targets: {
        pagesWithin2xSql: firstPage.ratio <= 2 && deepPage.ratio <= 2,
        countsBySelectUnder40ms: countsBySelect.api.p50 < 40,
        kanbanUnder50ms: groupedQuery.api.p50 < 50,
        searchUnder10ms: search.api.p50 < 10,
      },
    },
    null,
    2,
  )}\n`,
);
await app.close();
await database.close();
await database.cleanup();
