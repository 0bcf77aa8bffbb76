import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { spawnAgent } from '../../../test/helpers/agent-process.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  eventually,
  removeLabelled,
  testRunLabel,
} from '../../../test/helpers/engine.js';
import { TEST_SECRETS_KEY } from '../../../test/helpers/platform.js';
import {
  fetchAs,
  HTTP_PORT,
  insertReplicas,
  serviceContainerScript,
  WS_PORT,
} from '../../../test/helpers/service-container.js';
import {
  type FreshDatabase,
  freshDatabase,
  type Server,
  serve,
  signedInAccount,
} from '../../../test/helpers/sparrow-process.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';

/** The fields of the answers this test reads. */
interface Body {
  id: string;
  token: string;
  node: { id: string };
}

/**
 * Two `sparrow serve` processes on one PostgreSQL and a real `sparrow agent`
 * process connected to the first: a service's URL answers on both, the
 * second reaching the agent through the relay (binary stream frames on the
 * agent's link, JSON on the relay).
 */
describe.runIf(
  inject('testDatabase').kind === 'postgres' && process.env.SPARROW_SKIP_ENGINE_TESTS !== '1',
)('service URLs on two server processes', () => {
  let database: FreshDatabase;
  let handle: DatabaseHandle;
  let docker: Docker;
  const servers: Server[] = [];
  let agent: ChildProcess | undefined;
  let token: string;
  const labels = testRunLabel();
  let serviceId: string;
  let wsServiceId: string;
  let orgId: string;
  let deploymentId: string;

  async function api(method: string, path: string, body?: unknown) {
    const response = await fetch(`${servers[0]?.url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer: { status: number; body: Body } = {
      status: response.status,
      body: (await response.json()) as Body,
    };
    return answer;
  }

  async function startContainer(label: string): Promise<string> {
    const name = `sparrow-svc-test-${randomBytes(4).toString('hex')}`;
    const container = await docker.createContainer({
      name,
      Image: BUSYBOX_IMAGE,
      Labels: labels,
      Cmd: ['sh', '-c', serviceContainerScript(label, 0)],
    });
    await container.start();
    return name;
  }

  beforeAll(async () => {
    docker = await connectTestEngine();
    database = await freshDatabase();
    const env = { ...database.env, SECRETS_KEY: TEST_SECRETS_KEY };
    servers.push(await serve(env));
    servers.push(await serve(env));
    handle = await connectPostgres({ url: database.env.DATABASE_URL ?? '', poolSize: 2 });
    token = await signedInAccount(handle.db, servers[0]?.url ?? '', 'Routes');
    const org = (await api('POST', '/orgs', { name: 'Routes' })).body;
    const node = (await api('POST', `/orgs/${org.id}/nodes`, { name: 'held-by-first' })).body;
    agent = spawnAgent(servers[0]?.url ?? '', node.token);
    const deployment = (await api('POST', `/orgs/${org.id}/deployments`, { name: 'Routes' })).body;
    orgId = org.id;
    deploymentId = deployment.id;
    const add = async (name: string) =>
      (
        await api('POST', `/orgs/${org.id}/deployments/${deployment.id}/services`, {
          name,
          source: { type: 'image', image: 'busybox:1.36' },
          port: HTTP_PORT,
        })
      ).body;
    const [web, ws] = [await add('web'), await add('ws')];
    serviceId = web.id;
    wsServiceId = ws.id;
    const [webContainer, wsContainer] = await Promise.all([
      startContainer('two-processes'),
      startContainer('ws'),
    ]);
    await insertReplicas(handle.db, { id: web.id, orgId: org.id, deploymentId: deployment.id }, [
      { nodeId: node.node.id, container: webContainer, port: HTTP_PORT },
    ]);
    await insertReplicas(handle.db, { id: ws.id, orgId: org.id, deploymentId: deployment.id }, [
      { nodeId: node.node.id, container: wsContainer, port: WS_PORT },
    ]);
    await eventually(
      async () => {
        const page = await fetchAs(servers[1]?.url ?? '', host(serviceId), '/');
        return page.body.toString() === 'two-processes' ? true : undefined;
      },
      90_000,
      'the service to answer through the second process',
    );
  }, 180_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    for (const server of servers) if (server.child.exitCode === null) await server.stop();
    if (docker !== undefined) await removeLabelled(docker, labels);
    await handle?.close();
    await database?.close();
  });

  const host = (id: string) => `svc-${id}.svc.localhost`;

  it('answers on both processes: GET, a streamed POST body and a WebSocket', async () => {
    for (const server of servers) {
      const page = await fetchAs(server.url, host(serviceId), '/');
      expect(page.status).toBe(200);
      expect(page.body.toString()).toBe('two-processes');
      const body = randomBytes(2 * 1024 * 1024);
      const echoed = await fetchAs(server.url, host(serviceId), '/cgi-bin/echo', {
        method: 'POST',
        body,
      });
      expect(echoed.status).toBe(200);
      expect(echoed.body.equals(body)).toBe(true);
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/socket`, {
        headers: { host: host(wsServiceId) },
      });
      const hello = await new Promise<string>((resolve, reject) => {
        socket.once('message', (data) => resolve(data.toString()));
        socket.once('error', reject);
      });
      expect(hello).toBe('hello');
      socket.terminate();
    }
  });

  it('refuses a revoked key on the very next request on both processes', async () => {
    const service = `/orgs/${orgId}/deployments/${deploymentId}/services/${serviceId}`;
    expect((await api('PATCH', service, { accessControl: 'private' })).status).toBe(200);
    const key = await api('POST', `/orgs/${orgId}/api-keys`, {
      name: 'reach',
      ownerType: 'org',
      scopes: ['deployments:access'],
    });
    expect(key.status).toBe(201);
    const withKey = { headers: { 'x-service-token': key.body.token } };
    // Granted on both, several times: each process now holds the grant in its cache.
    for (let round = 0; round < 3; round++) {
      for (const server of servers) {
        expect((await fetchAs(server.url, host(serviceId), '/', withKey)).status).toBe(200);
      }
    }
    const revoked = await fetch(`${servers[0]?.url}/api/orgs/${orgId}/api-keys/${key.body.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBeLessThan(300);
    // No wait: the next request on either process is refused.
    for (const server of [...servers].reverse()) {
      expect((await fetchAs(server.url, host(serviceId), '/', withKey)).status).toBe(401);
    }
    expect((await api('PATCH', service, { accessControl: 'public' })).status).toBe(200);
  });
});
