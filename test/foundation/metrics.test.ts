import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentConnection } from '../../src/agent/connection.js';
import { Runtime } from '../../src/agent/runtime.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { modules } from '../../src/modules.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { createCollection, createItem, createUser, createWorkspace } from '../helpers/factories.js';

const TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
const SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

let t: TestApp;
let off: TestApp;

beforeAll(async () => {
  [t, off] = await Promise.all([
    createTestApp({ METRICS_TOKEN: TOKEN, SECRETS_KEY }),
    createTestApp({ SECRETS_KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), off?.close()]);
});

async function scrape(app: TestApp = t): Promise<string> {
  const response = await app.http.get('/metrics', { token: TOKEN });
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text;
}

/** The value of one series (name and labels exactly as printed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /metrics: access', () => {
  it('is off, 404 metrics_disabled, when the server has no METRICS_TOKEN', async () => {
    const response = await off.http.get('/metrics', { token: TOKEN });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('metrics_disabled');
  });

  it('refuses a scrape without a token, with a malformed header, or with a wrong token', async () => {
    const none = await t.http.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('unauthenticated');
    const basic = await t.http.get('/metrics', { headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
    expect(basic.body.error.code).toBe('malformed_authorization');
    const wrong = await t.http.get('/metrics', { token: `${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_token');
  });

  it('does not take an account session in place of the metrics token', async () => {
    const user = await createUser(t);
    const response = await t.http.get('/metrics', { token: user.token });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_token');
    expect(response.text).not.toContain('http_request_duration_seconds');
  });

  it('is served under /api too', async () => {
    const response = await t.api.get('/metrics', { token: TOKEN });
    expect(response.status).toBe(200);
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
  });
});

describe('GET /metrics: content', () => {
  it('times requests by method, route pattern and status, never by raw URL', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    expect((await t.http.get(`/workspaces/${workspace.id}`, { token })).status).toBe(200);
    expect((await t.api.get(`/workspaces/${workspace.id}`, { token })).status).toBe(200);
    const unknown = `/no-such-route-${randomBytes(4).toString('hex')}`;
    expect((await t.http.get(unknown)).status).toBe(404);

    const text = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/workspaces/:workspaceId",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/workspaces/:workspaceId",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="POST",route="/workspaces",status="201"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toContain(workspace.id);
    expect(text).not.toContain(unknown);
  });

  it('has the process metrics, event-loop lag among them', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('counts the pending webhook deliveries when scraped', async () => {
    // No dispatcher runs in this app: deliveries stay pending.
    expect(sample(await scrape(), 'sparrow_webhook_deliveries_pending')).toBe(0);
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const endpoint = await t.http.post(
      `/workspaces/${workspace.id}/webhooks`,
      { url: 'https://hooks.example.test/in', eventTypes: ['*'] },
      { token },
    );
    expect(endpoint.status).toBe(201);
    const collection = await createCollection(t, workspace);
    await createItem(t, workspace, collection.id);
    const deliveries = await t.http.get(
      `/workspaces/${workspace.id}/webhooks/${endpoint.body.id}/deliveries`,
      { token, query: { limit: '100' } },
    );
    expect(deliveries.status).toBe(200);
    const pending = deliveries.body.deliveries.filter(
      (delivery: { state: string }) => delivery.state === 'pending',
    );
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(sample(await scrape(), 'sparrow_webhook_deliveries_pending')).toBe(pending.length);
  });

  it('counts the node agents connected to this process', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const owner = await createUser(t);
    const org = await t.api.post('/orgs', { name: 'Metrics' }, { token: owner.token });
    expect(org.status).toBe(201);
    const node = await t.api.post(
      `/orgs/${org.body.id}/nodes`,
      { name: 'scraped' },
      { token: owner.token },
    );
    expect(node.status).toBe(201);
    expect(sample(await scrape(), 'sparrow_agents_connected')).toBe(0);

    // A real agent over a real socket; its engine is absent, which the link does not need.
    const engine = new Docker({
      socketPath: `/nonexistent/${randomBytes(4).toString('hex')}.sock`,
    });
    const agent = new AgentConnection({
      server: `http://127.0.0.1:${port}`,
      token: node.body.token,
      runtime: new Runtime(engine),
      initialBackoffMs: 50,
      maxBackoffMs: 500,
    });
    agent.start();
    try {
      await eventually(
        async () => (sample(await scrape(), 'sparrow_agents_connected') ?? 0) === 1 || undefined,
        'the agent to connect',
      );
    } finally {
      await agent.stop();
    }
    await eventually(
      async () => sample(await scrape(), 'sparrow_agents_connected') === 0 || undefined,
      'the agent to leave',
    );
  });
});

describe('GET /metrics: database pool', () => {
  it('reports the PostgreSQL pool, and nothing for the embedded database', async () => {
    const database = await createTestDatabase();
    const { app } = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', METRICS_TOKEN: TOKEN, SECRETS_KEY }),
      db: database.db,
      dbKind: database.kind,
      modules,
      pool: database.pool,
    });
    try {
      const response = await app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      if (database.kind === 'postgres') {
        const total = sample(response.body, 'sparrow_db_pool_connections') ?? -1;
        const idle = sample(response.body, 'sparrow_db_pool_idle_connections') ?? -1;
        expect(total).toBeGreaterThanOrEqual(1);
        expect(idle).toBeGreaterThanOrEqual(0);
        expect(idle).toBeLessThanOrEqual(total);
        // Read while the other collectors query: a connection being opened counts as waiting.
        expect(sample(response.body, 'sparrow_db_pool_waiting_queries')).toBeGreaterThanOrEqual(0);
      } else {
        expect(response.body).not.toContain('sparrow_db_pool');
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
});
