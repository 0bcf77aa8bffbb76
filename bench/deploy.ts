import { Agent, request as httpRequest } from 'node:http';
import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { machine } from './server.js';

/**
 * Deploys of a busybox httpd service (a local image): the time from the
 * deploy request to the new version serving (the service's `activeRunId`
 * is the new run), and the requests lost meanwhile: a client sends requests
 * one after another on a kept-alive connection to the service's URL, through
 * the server's proxy, for the whole run. BENCH_RUNS deploys (default 8).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const IMAGE = 'localhost/sparrow/busybox:v1';
const DRAIN_MS = 2000;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const bench = await startPlatformBench([], { SERVICE_DRAIN_MS: String(DRAIN_MS) });
const { server, token } = bench;
const deployment = await call(
  server.url,
  'POST',
  `/api/orgs/${bench.orgId}/deployments`,
  { name: 'bench' },
  token,
);
const base = `/api/orgs/${bench.orgId}/deployments/${deployment.id}`;
const service = await call(
  server.url,
  'POST',
  `${base}/services`,
  {
    name: 'web',
    source: { type: 'image', image: IMAGE },
    command: 'mkdir -p /www && echo "$VERSION" > /www/index.html && exec httpd -f -p 8080 -h /www',
    port: 8080,
    env: { VERSION: '0' },
    healthCheck: { path: '/index.html', graceSeconds: 60 },
  },
  token,
);
const servicePath = `${base}/services/${service.id}`;

async function serviceState() {
  return call<{ activeRunId: string | null; state: string; stateReason: string | null }>(
    server.url,
    'GET',
    servicePath,
    undefined,
    token,
  );
}

/** One request as a client sends it: to the service's URL, through the server's proxy. */
function request(): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${server.url}/index.html`,
      { agent, headers: { host: `svc-${service.id}.svc.localhost:${port}` } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body.trim())
            : reject(new Error(`HTTP ${response.statusCode}: ${body}`)),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

async function deploy(version: number): Promise<number> {
  await call(server.url, 'PATCH', servicePath, { env: { VERSION: String(version) } }, token);
  const started = performance.now();
  const moved = await call(server.url, 'POST', `${servicePath}/deploy`, {}, token);
  for (;;) {
    const state = await serviceState();
    if (state.activeRunId === moved.runId) return performance.now() - started;
    if (state.stateReason !== null) throw new Error(`deploy failed: ${state.stateReason}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const samples: number[] = [];
let sent = 0;
let lost = 0;
let looping = true;
try {
  await deploy(0);
  const loop = (async () => {
    while (looping) {
      sent++;
      await request().catch(() => {
        lost++;
      });
    }
  })();
  for (let run = 1; run <= RUNS; run++) {
    samples.push(await deploy(run));
    // The next deploy waits for this one's drain anyway (moves of a service queue).
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS + 500));
  }
  looping = false;
  await loop;
  const last = await request();
  console.log(
    JSON.stringify(
      {
        benchmark: 'deploy',
        database: server.database,
        image: IMAGE,
        machine: machine(),
        deploys: RUNS,
        drainMs: DRAIN_MS,
        requestToServingMs: {
          p50: percentile(samples, 50),
          p99: percentile(samples, 99),
          min: percentile(samples, 0),
        },
        requests: { sent, lost, lostTarget: 0 },
        servingVersion: last,
      },
      null,
      2,
    ),
  );
} finally {
  looping = false;
  agent.destroy();
  await call(server.url, 'POST', `${base}/stop`, {}, token).catch(() => {});
  for (let i = 0; i < 100; i++) {
    const state = await serviceState().catch(() => ({ state: 'stopped' }));
    if (state.state === 'stopped') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await bench.stop();
}
