import autocannon from 'autocannon';
import { call, registerUser } from './api.js';
import { bareCreations } from './bare-items.js';
import { BENCH_POSTGRES_URL, machine, startServer } from './server.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres').split(',') as Array<
  'pglite' | 'postgres'
>;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Result {
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  requests: number;
  errors: number;
}

function summarize(result: autocannon.Result): Result {
  return {
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The bare SQL baseline of creations, on one connection and on as many as the API run used. */
async function bareBaseline(base: string, token: string, ws: string, listId: string) {
  const me = await call<{ id: string }>(base, 'GET', '/auth/me', undefined, token);
  const statuses = await call<Array<{ id: string }>>(
    base,
    'GET',
    `${ws}/statuses`,
    undefined,
    token,
  );
  const target = {
    workspaceId: ws.slice('/workspaces/'.length),
    collectionId: listId,
    statusId: statuses[0]?.id ?? '',
    userId: me.id,
  };
  return {
    oneConnection: await bareCreations(BENCH_POSTGRES_URL, target, 1, DURATION_SECONDS),
    [`${CONNECTIONS}Connections`]: await bareCreations(
      BENCH_POSTGRES_URL,
      target,
      CONNECTIONS,
      DURATION_SECONDS,
    ),
  };
}

async function benchmark(database: 'pglite' | 'postgres') {
  const server = await startServer(database);
  try {
    const token = await registerUser(server.url);
    const workspace = await call<{ id: string }>(
      server.url,
      'POST',
      '/workspaces',
      { name: 'Bench', slug: 'bench' },
      token,
    );
    const ws = `/workspaces/${workspace.id}`;
    const stage = await call<{ config: { options: Array<{ id: string }> } }>(
      server.url,
      'POST',
      `${ws}/fields`,
      {
        key: 'stage',
        type: 'select',
        name: 'Stage',
        config: {
          options: [
            { label: 'A', color: '#000000' },
            { label: 'B', color: '#111111' },
          ],
        },
      },
      token,
    );
    await call(
      server.url,
      'POST',
      `${ws}/fields`,
      { key: 'points', type: 'number', name: 'Points' },
      token,
    );
    const list = await call<{ id: string }>(
      server.url,
      'POST',
      `${ws}/collections`,
      { name: 'Bench', keyPrefix: 'B' },
      token,
    );
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const optionIds = stage.config.options.map((option) => option.id);

    // Creations: each with its item.created event, in its transaction, into one list.
    const creations = (connections: number) =>
      autocannon({
        url: `${server.url}${ws}/collections/${list.id}/items`,
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: 'Benchmark card',
          body: '## Notes\n\nSome **text** with a [link](https://example.com).',
          properties: { stage: optionIds[0], points: 3 },
        }),
        connections,
        duration: DURATION_SECONDS,
      });
    const createOne = await creations(1);
    const create = await creations(CONNECTIONS);
    const bare =
      database === 'postgres' ? await bareBaseline(server.url, token, ws, list.id) : undefined;
    const created = await call<{ events: Array<{ resource: { id: string } }> }>(
      server.url,
      'GET',
      `${ws}/events?type=item.created&limit=1000`,
      undefined,
      token,
    );
    const itemIds = created.events.map((event) => event.resource.id);

    const get = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      headers,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({
            ...request,
            path: `${ws}/items/${itemIds[Math.floor(Math.random() * itemIds.length)]}`,
          }),
        },
      ],
    });

    let counter = 0;
    const patch = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      headers,
      requests: [
        {
          method: 'PATCH',
          setupRequest: (request) => {
            counter += 1;
            return {
              ...request,
              path: `${ws}/items/${itemIds[counter % itemIds.length]}`,
              body: JSON.stringify({
                properties: { points: counter, stage: optionIds[counter % 2] },
              }),
            };
          },
        },
      ],
    });
    return {
      database,
      connections: CONNECTIONS,
      createItemOneConnection: summarize(createOne),
      createItem: summarize(create),
      bareSqlCreationsPerSecond: bare,
      getItem: summarize(get),
      patchProperties: summarize(patch),
    };
  } finally {
    await server.stop();
  }
}

const results = [];
for (const database of DATABASES) results.push(await benchmark(database));
process.stdout.write(
  `${JSON.stringify({ benchmark: 'items', durationSeconds: DURATION_SECONDS, machine: machine(), results }, null, 2)}\n`,
);
