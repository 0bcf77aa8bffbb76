import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { machine } from './server.js';

/**
 * Worker lifecycle times through the whole stack (HTTP, server, agent
 * process, engine), each move awaited with `wait=true`: spawn to ready,
 * stop, and stop to start (ready again). BENCH_IMAGE picks the image.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

const bench = await startPlatformBench();
const { server, token } = bench;
const workers = `/api/orgs/${bench.orgId}/projects/${bench.projectId}/workers`;
const samples = {
  spawnToReady: [] as number[],
  stop: [] as number[],
  stopToStart: [] as number[],
  delete: [] as number[],
};

async function timed(
  list: number[],
  work: () => Promise<{ state?: string } | undefined>,
  expected?: string,
) {
  const started = performance.now();
  const result = await work();
  list.push(performance.now() - started);
  if (expected !== undefined && result?.state !== expected) {
    throw new Error(`expected ${expected}, got ${JSON.stringify(result)}`);
  }
}

try {
  for (let run = 0; run < RUNS; run++) {
    let id = '';
    await timed(
      samples.spawnToReady,
      async () => {
        const worker = await call(server.url, 'POST', `${workers}?wait=true`, {}, token);
        id = worker.id;
        return worker;
      },
      'ready',
    );
    await timed(
      samples.stop,
      () => call(server.url, 'POST', `${workers}/${id}/stop?wait=true`, undefined, token),
      'stopped',
    );
    await timed(
      samples.stopToStart,
      () => call(server.url, 'POST', `${workers}/${id}/start?wait=true`, undefined, token),
      'ready',
    );
    await timed(samples.delete, () =>
      call(server.url, 'DELETE', `${workers}/${id}?wait=true`, undefined, token),
    );
  }
  const summary = (values: number[]) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    runs: values.length,
  });
  console.log(
    JSON.stringify(
      {
        benchmark: 'workers',
        database: server.database,
        image: bench.image,
        machine: machine(),
        latencyMs: {
          spawnToReady: summary(samples.spawnToReady),
          stop: summary(samples.stop),
          stopToStart: summary(samples.stopToStart),
          delete: summary(samples.delete),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await bench.stop();
}
