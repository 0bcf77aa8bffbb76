import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, request as keepAliveRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../../test/helpers/engine.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  registerNode,
} from '../../../test/helpers/nodes.js';
import { createKey } from '../../../test/helpers/platform.js';
import {
  fetchAs,
  HTTP_PORT,
  insertReplicas,
  SLOW_BYTES,
  SLOW_PORT,
  startServiceContainer,
  WS_PORT,
} from '../../../test/helpers/service-container.js';
import type { AgentPeer } from '../../agent/peer.js';
import { buildApp } from '../../app.js';
import { modules } from '../../modules.js';
import { announceRoutes } from './targets.js';
import { openTunnel } from './tunnel.js';

const BIG_BYTES = 32 * 1024 * 1024;

interface TestService {
  id: string;
  orgId: string;
  deploymentId: string;
  url: string;
}

/**
 * The service proxy on a real engine: busybox containers started through a
 * real agent, replica rows written as a deploy would, requests sent to the
 * server with the service's Host. A second app on the same database stands
 * for a second server process that does not hold the agent.
 */
describeEngine('service URLs', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let peer: AgentPeer;
  let nodeId: string;
  let port: number;
  let deploymentId: string;
  let other: FastifyInstance;
  let otherUrl: string;
  const labels = testRunLabel();
  const containers: string[] = [];

  const host = (serviceId: string) => `svc-${serviceId}.svc.localhost:${port}`;

  async function addService(name: string, extra: Record<string, unknown> = {}) {
    const response = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
      { name, source: { type: 'image', image: 'busybox:1.36' }, port: HTTP_PORT, ...extra },
      { token: bed.owner.token },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const { id, orgId, url } = response.body;
    return { id, orgId, deploymentId, url } satisfies TestService;
  }

  async function container(label: string, bigBytes = 0): Promise<string> {
    const name = `sparrow-svc-test-${randomBytes(4).toString('hex')}`;
    containers.push(name);
    return startServiceContainer(peer, { name, label, labels, bigBytes });
  }

  /** A service with one active replica on `container`, answering once the container listens. */
  async function serviceOn(name: string, containerName: string, replicaPort = HTTP_PORT) {
    const service = await addService(name);
    await insertReplicas(bed.t.db, service, [
      { nodeId, container: containerName, port: replicaPort },
    ]);
    return service;
  }

  let web: TestService;
  let webContainer: string;
  /** Containers of their own for the other services (a container serves one replica). */
  let spare: Record<
    'ws' | 'closed' | 'first' | 'beta' | 'domained' | 'switching' | 'guarded',
    string
  >;

  beforeAll(async () => {
    docker = await connectTestEngine();
    // A short idle timeout: a slow service must still be waited for.
    bed = await createNodeTestBed({ HTTP_IDLE_TIMEOUT_MS: '1000' });
    port = Number(new URL(bed.baseUrl).port);
    const node = await onlineNode(bed, docker, 'proxy-node');
    nodeId = node.id;
    peer = bed.t.ctx.agents.peer(nodeId);
    const deployment = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'Routed' },
      { token: bed.owner.token },
    );
    deploymentId = deployment.body.id;
    const [first, ...others] = await Promise.all([
      container('alpha', BIG_BYTES),
      container('ws'),
      container('closed'),
      container('first'),
      container('beta'),
      container('domained'),
      container('switching'),
      container('guarded'),
    ]);
    webContainer = first ?? '';
    const [
      ws = '',
      closed = '',
      switched = '',
      beta = '',
      domained = '',
      switching = '',
      guarded = '',
    ] = others;
    spare = { ws, closed, first: switched, beta, domained, switching, guarded };
    // Every container's httpd and greeter listen before the tests begin.
    await Promise.all(
      [webContainer, ...others].map((name) =>
        eventually(
          async () => {
            const probe = await peer.request('exec.run', {
              containerId: name,
              command: [
                'sh',
                '-c',
                `wget -q -O /dev/null http://127.0.0.1:${HTTP_PORT}/ && netstat -ltn | grep -q :${WS_PORT}`,
              ],
            });
            return probe.exitCode === 0 ? true : undefined;
          },
          60_000,
          `${name} listening`,
        ),
      ),
    );
    web = await serviceOn('web', webContainer);
    await eventually(
      async () =>
        (await fetchAs(bed.baseUrl, host(web.id), '/')).status === 200 ? true : undefined,
      60_000,
      'the service container to answer',
    );
    other = (
      await buildApp({
        config: bed.t.ctx.config,
        db: bed.t.db,
        dbKind: bed.t.dbKind,
        modules,
        notifications: bed.t.notifications,
      })
    ).app;
    await other.listen({ port: 0, host: '127.0.0.1' });
    otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await other?.close();
    await bed?.close();
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it("shows the service's URL, on the service domain with the server's port", async () => {
    expect(web.url).toBe(`http://svc-${web.id}.svc.localhost:8080`);
  });

  it('proxies a GET to the container and leaves other hosts to the API', async () => {
    const page = await fetchAs(bed.baseUrl, host(web.id), '/');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe('alpha');
    // The API's own paths on a service host go to the service (busybox has none).
    const notApi = await fetchAs(bed.baseUrl, host(web.id), '/api/users/me');
    expect(notApi.status).toBe(404);
    expect(notApi.body.toString()).not.toContain('route_not_found');
    const api = await fetchAs(bed.baseUrl, `127.0.0.1:${port}`, '/api/users/me');
    expect(api.status).toBe(401);
  });

  it('streams a request body to the container and its answer back', async () => {
    const body = randomBytes(3 * 1024 * 1024 + 17);
    const echoed = await fetchAs(bed.baseUrl, host(web.id), '/cgi-bin/echo', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.body.length).toBe(body.length);
    expect(echoed.body.equals(body)).toBe(true);
  });

  it('sets X-Forwarded-For, -Proto and -Host and keeps the Host', async () => {
    const env = await fetchAs(bed.baseUrl, host(web.id), '/cgi-bin/env', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    const text = env.body.toString();
    expect(text).toContain('HTTP_X_FORWARDED_FOR=127.0.0.1\n');
    expect(text).toContain('HTTP_X_FORWARDED_PROTO=http\n');
    expect(text).toContain(`HTTP_X_FORWARDED_HOST=${host(web.id)}\n`);
    // Without TRUST_PROXY a client's own forwarding header is not believed.
    expect(text).not.toContain('203.0.113.9');
  });

  it('waits for a service slower than the idle timeout, as for a slow API handler', async () => {
    const slow = await fetchAs(bed.baseUrl, host(web.id), '/cgi-bin/slow');
    expect(slow.status).toBe(200);
    expect(slow.body.toString()).toBe('slept');
  });

  it('streams a 32 MiB download intact', async () => {
    const expected = await peer.request('exec.run', {
      containerId: webContainer,
      command: ['sha256sum', '/www/big.bin'],
    });
    const digest = createHash('sha256');
    let length = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        `${bed.baseUrl}/big.bin`,
        { agent: false, headers: { host: host(web.id) } },
        (response) => {
          response.on('data', (chunk: Buffer) => {
            length += chunk.length;
            digest.update(chunk);
          });
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(200);
    expect(length).toBe(BIG_BYTES);
    expect(expected.stdout.split(' ')[0]).toBe(digest.digest('hex'));
  });

  it('proxies a WebSocket upgrade, then bytes both ways', async () => {
    const ws = await serviceOn('ws', spare.ws, WS_PORT);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/socket`, {
      headers: { host: host(ws.id) },
    });
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(data.toString()));
      socket.once('error', reject);
    });
    expect(first).toBe('hello');
    socket.terminate();

    // Raw: the greeter echoes what it gets after the handshake.
    const echoed = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(`${bed.baseUrl}/raw`, {
        agent: false,
        headers: {
          host: host(ws.id),
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          'sec-websocket-version': '13',
        },
      });
      request.on('upgrade', (response, upgraded, head) => {
        expect(response.statusCode).toBe(101);
        let received = head.toString('latin1');
        upgraded.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (received.includes('ping-through-the-tunnel')) {
            upgraded.destroy();
            resolve(received);
          }
        });
        upgraded.write('ping-through-the-tunnel');
      });
      request.on('response', (response) => reject(new Error(`no upgrade: ${response.statusCode}`)));
      request.on('error', reject);
      request.end();
    });
    expect(echoed).toContain('hello');
  });

  it('holds input back while the container does not read it, and loses none', async () => {
    const tunnel = await openTunnel(peer, spare.closed, SLOW_PORT);
    tunnel.on('error', () => {});
    onTestFinished(() => {
      tunnel.destroy();
    });
    const replies: Buffer[] = [];
    tunnel.on('data', (chunk: Buffer) => replies.push(chunk));
    const chunk = randomBytes(64 * 1024);
    let accepted = 0;
    const writing = (async () => {
      while (accepted < SLOW_BYTES) {
        const more = tunnel.write(chunk);
        accepted += chunk.length;
        if (!more) await once(tunnel, 'drain');
      }
    })();
    // The container sleeps 4 s before it reads: what is taken meanwhile is
    // what the buffers on the way hold (socket buffers, the agent's 1 MiB),
    // not the whole upload.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(accepted).toBeLessThan(SLOW_BYTES / 2);
    await writing;
    await eventually(
      () => (Buffer.concat(replies).toString().trim() === String(SLOW_BYTES) ? true : undefined),
      60_000,
      'the container to count every byte',
    );
    tunnel.destroy();
  });

  it('reuses a kept-alive tunnel, and opens another once the idle one is closed', async () => {
    // A keep-alive server that answers with the number of connections it has had.
    const folder = await mkdtemp(join(tmpdir(), 'sparrow-keepalive-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    await writeFile(
      join(folder, 'server.js'),
      `let count = 0;
       const server = require('node:http').createServer((req, res) => res.end(String(count)));
       server.on('connection', () => { count++; });
       server.keepAliveTimeout = 3000;
       server.listen(${HTTP_PORT});`,
    );
    const name = `sparrow-svc-test-${randomBytes(4).toString('hex')}`;
    await peer.request('container.create', {
      image: WORKSPACE_IMAGE,
      name,
      labels,
      command: ['/usr/local/bin/node', '/srv/server.js'],
      mounts: [
        { source: await realpath(process.execPath), target: '/usr/local/bin/node', readOnly: true },
        { source: folder, target: '/srv', readOnly: true },
      ],
    });
    await peer.request('container.start', { containerId: name });
    const service = await serviceOn('kept', name);
    const client = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => client.destroy());
    const get = () =>
      new Promise<string>((resolve, reject) => {
        const request = keepAliveRequest(
          `${bed.baseUrl}/`,
          { agent: client, headers: { host: host(service.id) } },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            response.on('end', () => resolve(text));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end();
      });
    await eventually(
      async () => (/^\d+$/.test(await get().catch(() => '')) ? true : undefined),
      60_000,
      'the keep-alive server to answer',
    );
    const first = Number(await get());
    for (let round = 0; round < 20; round++) expect(Number(await get())).toBe(first);
    // The idle connection is closed (its Keep-Alive hint says 3 s); the next request gets a new one.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(Number(await get())).toBe(first + 1);
  });

  it('answers 404 for an unknown service, 503 with no replica, 502 when the port is closed', async () => {
    const unknown = await fetchAs(bed.baseUrl, host('0190a4c2-1111-7000-8000-000000000000'), '/');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toMatchObject({
      error: { code: 'service_not_found' },
    });

    const idle = await addService('idle');
    const none = await fetchAs(bed.baseUrl, host(idle.id), '/');
    expect(none.status).toBe(503);
    expect(JSON.parse(none.body.toString())).toMatchObject({
      error: { code: 'service_unavailable' },
    });

    const closed = await serviceOn('closed', spare.closed, 8999);
    const refused = await fetchAs(bed.baseUrl, host(closed.id), '/');
    expect(refused.status).toBe(502);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      error: { code: 'service_unreachable' },
    });

    // A replica on a node whose agent is not connected anywhere.
    const offlineNode = await registerNode(bed, 'never-connected');
    const stranded = await addService('stranded');
    await insertReplicas(bed.t.db, stranded, [
      { nodeId: offlineNode.id, container: 'sparrow-svc-stranded', port: HTTP_PORT },
    ]);
    const offline = await fetchAs(bed.baseUrl, host(stranded.id), '/');
    expect(offline.status).toBe(503);
    expect(JSON.parse(offline.body.toString())).toMatchObject({
      error: { code: 'service_unavailable' },
    });

    const gone = await addService('gone');
    await insertReplicas(bed.t.db, gone, [{ nodeId, container: 'sparrow-svc-missing', port: 80 }]);
    expect((await fetchAs(bed.baseUrl, host(gone.id), '/')).status).toBe(502);
  });

  it('lets a key with deployments:access into a private service, without its credential reaching the container', async () => {
    const secret = await addService('guarded', { accessControl: 'private' });
    await insertReplicas(bed.t.db, secret, [{ nodeId, container: spare.guarded, port: HTTP_PORT }]);
    const refused = await fetchAs(bed.baseUrl, host(secret.id), '/cgi-bin/env');
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString())).toMatchObject({
      error: { code: 'service_login_required' },
    });

    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const readOnly = await fetchAs(bed.baseUrl, host(secret.id), '/', {
      headers: { 'x-service-token': reader.token },
    });
    expect(readOnly.status).toBe(403);

    const key = await createKey(bed.t, bed.org, bed.owner, ['deployments:access'], 'org');
    const passed = await fetchAs(bed.baseUrl, host(secret.id), '/cgi-bin/env', {
      headers: { 'x-service-token': key.token, 'x-probe': 'kept' },
    });
    expect(passed.status).toBe(200);
    const seen = passed.body.toString();
    expect(seen).toContain('HTTP_X_PROBE=kept\n');
    expect(seen).not.toContain(key.token);
    expect(seen).not.toContain('HTTP_X_SERVICE_TOKEN');

    // A bearer that is not a platform credential is the service's own: forwarded unchanged.
    const foreign = await fetchAs(bed.baseUrl, host(web.id), '/cgi-bin/env', {
      headers: { authorization: 'Bearer app-token-123' },
    });
    expect(foreign.body.toString()).toContain('app-token-123');

    // The key as a bearer is let in too, and stripped the same way.
    const bearer = await fetchAs(bed.baseUrl, host(secret.id), '/cgi-bin/env', {
      headers: { authorization: `Bearer ${key.token}`, 'x-probe': 'bearer' },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.body.toString()).toContain('HTTP_X_PROBE=bearer\n');
    expect(bearer.body.toString()).not.toContain(key.token);
  });

  it('refuses a service switched to private on the next request, on both processes', async () => {
    const service = await serviceOn('switching', spare.switching);
    for (const base of [bed.baseUrl, otherUrl]) {
      expect((await fetchAs(base, host(service.id), '/')).status).toBe(200);
    }
    const patched = await bed.t.api.patch(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services/${service.id}`,
      { accessControl: 'private' },
      { token: bed.owner.token },
    );
    expect(patched.status).toBe(200);
    // The notification is asynchronous: a moment, far under the 5 s cache.
    await eventually(
      async () => {
        const statuses = await Promise.all(
          [bed.baseUrl, otherUrl].map(
            async (base) => (await fetchAs(base, host(service.id), '/')).status,
          ),
        );
        return statuses.every((status) => status === 401) ? true : undefined;
      },
      2_000,
      'both processes to refuse',
    );
  });

  it('takes turns between active replicas and follows a switch at once when announced', async () => {
    const beta = spare.beta;
    const service = await serviceOn('switched', spare.first);
    const before = await fetchAs(bed.baseUrl, host(service.id), '/');
    expect(before.body.toString()).toBe('first');
    // The deploy's switch: the new replica active, the old draining, announced in the same transaction.
    await bed.t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('service_replicas')
        .set({ state: 'draining' })
        .where('service_id', '=', service.id)
        .execute();
      await insertReplicas(trx, service, [{ nodeId, container: beta, port: HTTP_PORT }]);
      await announceRoutes(trx, service.id);
    });
    // Well under the 5 s the cache would otherwise keep the old target.
    await eventually(
      async () => {
        const page = await fetchAs(bed.baseUrl, host(service.id), '/');
        return page.body.toString() === 'beta' ? true : undefined;
      },
      2_500,
      'the switch to beta',
    );
    // Both active: answers alternate.
    await bed.t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('service_replicas')
        .set({ state: 'active' })
        .where('service_id', '=', service.id)
        .execute();
      await announceRoutes(trx, service.id);
    });
    await eventually(
      async () => {
        const seen = new Set<string>();
        for (let round = 0; round < 4; round++) {
          seen.add((await fetchAs(bed.baseUrl, host(service.id), '/')).body.toString());
        }
        return seen.size === 2 ? seen : undefined;
      },
      5_000,
      'both replicas answering',
    );
  });

  it('routes a verified custom domain, and not an unverified one', async () => {
    const domain = `shop-${randomBytes(3).toString('hex')}.example.test`;
    const service = await serviceOn('domained', spare.domained);
    await bed.t.db
      .updateTable('services')
      .set({ custom_domain: JSON.stringify({ name: domain, token: 'x', verifiedAt: null }) })
      .where('id', '=', service.id)
      .execute();
    const unverified = await fetchAs(bed.baseUrl, `${domain}:${port}`, '/index.html');
    expect(unverified.status).toBe(404);
    expect(unverified.body.toString()).toContain('route_not_found');
    await bed.t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('services')
        .set({
          custom_domain: JSON.stringify({
            name: domain,
            token: 'x',
            verifiedAt: new Date().toISOString(),
          }),
        })
        .where('id', '=', service.id)
        .execute();
      await announceRoutes(trx, service.id);
    });
    await eventually(
      async () => {
        const page = await fetchAs(bed.baseUrl, `${domain}:${port}`, '/');
        return page.body.toString() === 'domained' ? true : undefined;
      },
      2_500,
      'the verified domain to route',
    );
  });

  it('proxies from a server process that does not hold the agent (through the relay)', async () => {
    expect(bed.t.ctx.agents.get(nodeId)).toBeDefined();
    const page = await fetchAs(otherUrl, host(web.id), '/');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe('alpha');
    const body = randomBytes(1024 * 1024);
    const echoed = await fetchAs(otherUrl, host(web.id), '/cgi-bin/echo', {
      method: 'POST',
      body,
    });
    expect(echoed.body.equals(body)).toBe(true);
    const digest = createHash('sha256');
    const big = await fetchAs(otherUrl, host(web.id), '/big.bin');
    expect(big.body.length).toBe(BIG_BYTES);
    digest.update(big.body);
    const expected = await peer.request('exec.run', {
      containerId: webContainer,
      command: ['sha256sum', '/www/big.bin'],
    });
    expect(expected.stdout.split(' ')[0]).toBe(digest.digest('hex'));
  });
});
