import { call, registerUser } from './api.js';
import { percentile } from './platform.js';
import { machine, startServer } from './server.js';

/**
 * The tool server's overhead: p50 and p99 of a read tool call (`get_project`,
 * a JSON-RPC POST to /mcp) against the same REST call it re-dispatches
 * (GET /api/orgs/{orgId}/projects/{projectId}), alternated in the same run
 * over one keep-alive client, with an organization API key (orgId left out).
 * BENCH_DATABASE picks pglite (default) or postgres; BENCH_RUNS the calls.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const WARMUP = 200;

const database = (process.env.BENCH_DATABASE ?? 'pglite') as 'pglite' | 'postgres';
const server = await startServer(database);
try {
  const session = await registerUser(server.url);
  const org = await call(server.url, 'POST', '/api/orgs', { name: 'Bench' }, session);
  const project = await call(
    server.url,
    'POST',
    `/api/orgs/${org.id}/projects`,
    { name: 'bench' },
    session,
  );
  const key = await call(
    server.url,
    'POST',
    `/api/orgs/${org.id}/api-keys`,
    { name: 'bench', ownerType: 'org', scopes: ['projects:read'] },
    session,
  );
  const headers = { authorization: `Bearer ${key.token}` };
  const restUrl = `${server.url}/api/orgs/${org.id}/projects/${project.id}`;
  const toolBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_project', arguments: { projectId: project.id } },
  });

  async function rest(): Promise<void> {
    const response = await fetch(restUrl, { headers });
    const body: unknown = await response.json();
    const ok = typeof body === 'object' && body !== null && 'id' in body && body.id === project.id;
    if (response.status !== 200 || !ok) throw new Error('REST call failed');
  }
  async function tool(): Promise<void> {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: toolBody,
    });
    const text = await response.text();
    if (response.status !== 200 || !text.includes(project.id) || text.includes('"isError":true')) {
      throw new Error(`tool call failed: ${text}`);
    }
  }
  async function timed(work: () => Promise<void>, into: number[]): Promise<void> {
    const started = performance.now();
    await work();
    into.push(performance.now() - started);
  }

  for (let run = 0; run < WARMUP; run++) {
    await rest();
    await tool();
  }
  const samples = { rest: [] as number[], tool: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    await timed(rest, samples.rest);
    await timed(tool, samples.tool);
  }
  const summary = (values: number[]) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    runs: values.length,
  });
  const restSummary = summary(samples.rest);
  const toolSummary = summary(samples.tool);
  console.log(
    JSON.stringify(
      {
        benchmark: 'mcp',
        database: server.database,
        machine: machine(),
        call: 'get_project (tools/call) vs GET /api/orgs/{orgId}/projects/{projectId}',
        latencyMs: { rest: restSummary, tool: toolSummary },
        overheadMs: {
          p50: Math.round((toolSummary.p50 - restSummary.p50) * 100) / 100,
          p99: Math.round((toolSummary.p99 - restSummary.p99) * 100) / 100,
        },
        targetP50OverheadMs: 2,
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
}
