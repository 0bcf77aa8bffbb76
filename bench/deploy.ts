import { createEngine, parseDockerHost, SPARROW_PODMAN_SOCKET } from '../src/agent/engine.js';
import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { machine } from './server.js';

/**
 * Deploys of a busybox httpd service (a local image): the time from the
 * deploy request to the new version serving (the service's `activeRunId`
 * is the new run), and the requests lost meanwhile. A client loop stands for
 * the proxy: before each request it reads which deploy serves (GET of the
 * service) and sends the request to one of that deploy's containers on the
 * host port the engine published. BENCH_RUNS deploys (default 8).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const IMAGE = 'localhost/sparrow/busybox:v1';
const DRAIN_MS = 2000;

const docker = createEngine(
  parseDockerHost(process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`),
);
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

/** One request as a proxy would send it: to a container of the deploy serving now. */
async function request(): Promise<string> {
  const { activeRunId } = await serviceState();
  if (activeRunId === null) throw new Error('nothing serves');
  const [container] = await docker.listContainers({
    filters: { label: [`sparrow.run=${activeRunId}`], status: ['running'] },
  });
  const port = container?.Ports.find((p) => p.PrivatePort === 8080)?.PublicPort;
  if (port === undefined) throw new Error('no serving container');
  const response = await fetch(`http://127.0.0.1:${port}/index.html`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.text()).trim();
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
  await call(server.url, 'POST', `${base}/stop`, {}, token).catch(() => {});
  for (let i = 0; i < 100; i++) {
    const state = await serviceState().catch(() => ({ state: 'stopped' }));
    if (state.state === 'stopped') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await bench.stop();
}
