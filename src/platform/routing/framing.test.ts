import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
} from '../../../test/helpers/engine.js';
import { createNodeTestBed, type NodeTestBed, onlineNode } from '../../../test/helpers/nodes.js';
import { createKey } from '../../../test/helpers/platform.js';
import {
  type RawAnswer,
  RECORDING_PORT,
  type Recorded,
  rawExchange,
  startRecordingContainer,
} from '../../../test/helpers/recording-service.js';
import { fetchAs, insertReplicas } from '../../../test/helpers/service-container.js';

/** What a client tries to slip past the proxy as a second request. */
const SMUGGLED = 'GET /smuggled HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.66\r\n\r\n';
const chunked = (data: string) => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n0\r\n\r\n`;

interface Variant {
  name: string;
  method: string;
  headers: string[];
  body: string;
}

const METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
const length = `Content-Length: ${SMUGGLED.length}`;

/** Every framing a client may send: bodies on every method, CL.TE, TE.CL, odd TE, `Connection`. */
const VARIANTS: Variant[] = [
  ...METHODS.flatMap((method) => [
    { name: 'te', method, headers: ['Transfer-Encoding: chunked'], body: chunked(SMUGGLED) },
    { name: 'cl', method, headers: [length], body: SMUGGLED },
    {
      name: 'conn-cl',
      method,
      headers: ['Connection: Content-Length', length],
      body: SMUGGLED,
    },
    {
      name: 'conn-te',
      method,
      headers: ['Connection: keep-alive, Transfer-Encoding', 'Transfer-Encoding: chunked'],
      body: chunked(SMUGGLED),
    },
  ]),
  {
    name: 'conn-both',
    method: 'GET',
    headers: ['Connection: Content-Length, Transfer-Encoding', length],
    body: SMUGGLED,
  },
  {
    name: 'cl-te',
    method: 'GET',
    headers: ['Content-Length: 4', 'Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-cl',
    method: 'POST',
    headers: ['Transfer-Encoding: chunked', 'Content-Length: 4'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-twice',
    method: 'GET',
    headers: ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-list',
    method: 'DELETE',
    headers: ['Transfer-Encoding: gzip, chunked'],
    body: chunked(SMUGGLED),
  },
  { name: 'te-identity', method: 'GET', headers: ['Transfer-Encoding: identity'], body: SMUGGLED },
  {
    name: 'te-x',
    method: 'GET',
    headers: ['Transfer-Encoding: xchunked'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-tab',
    method: 'OPTIONS',
    headers: ['Transfer-Encoding:\tchunked'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-space',
    method: 'GET',
    headers: ['Transfer-Encoding : chunked'],
    body: chunked(SMUGGLED),
  },
  {
    name: 'te-fold',
    method: 'GET',
    headers: ['X-A: 1', ' Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
  },
  { name: 'cl-twice', method: 'GET', headers: ['Content-Length: 4', length], body: SMUGGLED },
];

/** Variants with one clear framing: passed on framed, never refused. */
const FRAMEABLE = new Set(['te', 'cl', 'conn-cl', 'conn-te', 'conn-both']);

/** The body the container must read for a variant the proxy lets through. */
const expectedBody = (variant: Variant) => (variant.method === 'HEAD' ? undefined : SMUGGLED);

describeEngine('request framing through the service proxy', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let port: number;
  let serviceId: string;
  let privateId: string;
  let cleanUp: () => Promise<void> = async () => {};
  const labels = testRunLabel();

  const host = (id: string) => `svc-${id}.svc.localhost:${port}`;
  const raw = (variant: Variant, path: string) =>
    [
      `${variant.method} ${path} HTTP/1.1`,
      `Host: ${host(serviceId)}`,
      ...variant.headers,
      '',
      variant.body,
    ].join('\r\n');

  async function recorded(): Promise<Recorded[]> {
    const answer = await fetchAs(bed.baseUrl, host(serviceId), '/__log');
    expect(answer.status).toBe(200);
    return JSON.parse(answer.body.toString());
  }

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed({ HTTP_IDLE_TIMEOUT_MS: '1000' });
    port = Number(new URL(bed.baseUrl).port);
    const node = await onlineNode(bed, docker, 'framing-node');
    const peer = bed.t.ctx.agents.peer(node.id);
    const deployment = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'Framed' },
      { token: bed.owner.token },
    );
    const cleanUps: Array<() => Promise<void>> = [];
    cleanUp = async () => {
      for (const clean of cleanUps) await clean();
    };
    const ids: string[] = [];
    for (const [name, accessControl] of [
      ['recorder', 'public'],
      ['guarded', 'private'],
    ]) {
      const container = `sparrow-svc-test-${randomBytes(4).toString('hex')}`;
      cleanUps.push(await startRecordingContainer(peer, { name: container, labels }));
      const created = await bed.t.api.post(
        `/orgs/${bed.org.id}/deployments/${deployment.body.id}/services`,
        {
          name,
          source: { type: 'image', image: 'busybox:1.36' },
          port: RECORDING_PORT,
          accessControl,
        },
        { token: bed.owner.token },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const service = { id: created.body.id, orgId: bed.org.id, deploymentId: deployment.body.id };
      await insertReplicas(bed.t.db, service, [
        { nodeId: node.id, container, port: RECORDING_PORT },
      ]);
      ids.push(service.id);
    }
    [serviceId = '', privateId = ''] = ids;
    await eventually(
      async () =>
        (await fetchAs(bed.baseUrl, host(serviceId), '/__log')).status === 200 ? true : undefined,
      60_000,
      'the recording service to answer',
    );
  });
  afterAll(async () => {
    await bed?.close();
    if (docker !== undefined) await removeLabelled(docker, labels);
    await cleanUp();
  });

  /** A variant's answer: refused by Node's parser, or the container's answer to that very request. */
  function checkAnswer(variant: Variant, path: string, answer: RawAnswer) {
    if (answer.status === 400 && !FRAMEABLE.has(variant.name)) return;
    expect(answer.status, `${variant.name} ${variant.method}: ${answer.body}`).toBe(200);
    if (variant.method === 'HEAD') return;
    const entry: Recorded = JSON.parse(answer.body);
    expect(entry.url, `${variant.name} ${variant.method}`).toBe(path);
    expect(entry.body, `${variant.name} ${variant.method}`).toBe(expectedBody(variant));
  }

  it('keeps every request framed: a body is never read by the container as another request', async () => {
    for (const variant of VARIANTS) {
      const path = `/v/${variant.name}/${variant.method}`;
      const answer = await rawExchange(port, raw(variant, path), {
        head: variant.method === 'HEAD',
      });
      checkAnswer(variant, path, answer);
    }
    const log = await recorded();
    expect(log.filter((entry) => entry.url === '/smuggled' || entry.method === 'ERROR')).toEqual(
      [],
    );
    for (const entry of log) {
      expect(entry.headers['x-forwarded-for']).toBe('127.0.0.1');
      if (entry.method !== 'HEAD' && entry.url.startsWith('/v/')) expect(entry.body).toBe(SMUGGLED);
    }
  });

  it('gives every concurrent client its own answer, whatever the others send', async () => {
    for (let round = 0; round < 3; round++) {
      const clients = Array.from({ length: 60 }, async (_, index) => {
        const path = `/__slow/r${round}/c${index}`;
        const answer = await rawExchange(
          port,
          `GET ${path} HTTP/1.1\r\nHost: ${host(serviceId)}\r\n\r\n`,
        );
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body).url).toBe(path);
      });
      const attackers = VARIANTS.map(async (variant) => {
        const path = `/v/r${round}/${variant.name}/${variant.method}`;
        const answer = await rawExchange(port, raw(variant, path), {
          head: variant.method === 'HEAD',
        });
        checkAnswer(variant, path, answer);
      });
      await Promise.all([...clients, ...attackers]);
    }
    const log = await recorded();
    expect(log.filter((entry) => entry.url === '/smuggled')).toEqual([]);
  });

  it("strips the platform's cookies and keeps the service's own, in order", async () => {
    const cookie =
      'theirs=1; session=ses_abcdefghijklmnopqrstuvwxyz; sparrow_access=svs_x; b=2; sparrow_access_state=st; __Host-sparrow_access=y';
    const mixed = await fetchAs(bed.baseUrl, host(serviceId), '/cookies', { headers: { cookie } });
    expect(JSON.parse(mixed.body.toString()).headers.cookie).toBe('theirs=1; b=2');
    const alone = await fetchAs(bed.baseUrl, host(serviceId), '/cookies', {
      headers: { cookie: 'session=ses_abcdefghijklmnopqrstuvwxyz' },
    });
    expect(JSON.parse(alone.body.toString()).headers).not.toHaveProperty('cookie');

    const key = await createKey(bed.t, bed.org, bed.owner, ['deployments:access'], 'org');
    // Its own container: wait until it listens.
    const guarded = await eventually(
      async () => {
        const answer = await fetchAs(bed.baseUrl, host(privateId), '/cookies', {
          headers: {
            'x-service-token': key.token,
            cookie: 'session=ses_abcdefghijklmnopqrstuvwxyz; app=z',
          },
        });
        return answer.status === 200 ? answer : undefined;
      },
      60_000,
      'the private service to answer',
    );
    expect(JSON.parse(guarded.body.toString()).headers.cookie).toBe('app=z');
  });

  it('forwards the body of a declined upgrade, then closes the connection', async () => {
    const request = [
      'POST /declined HTTP/1.1',
      `Host: ${host(serviceId)}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Content-Length: 11',
      '',
      'hello-world',
    ].join('\r\n');
    const answer = await rawExchange(port, request, { untilClosed: true });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ url: '/declined', body: 'hello-world' });
  });

  it('times out an upgrade whose body never comes', async () => {
    const request = [
      'POST /stalled HTTP/1.1',
      `Host: ${host(serviceId)}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Content-Length: 100',
      '',
      'hello',
    ].join('\r\n');
    // The idle timeout is 1 s here: the connection goes well before 20 s.
    const answer = await rawExchange(port, request, { untilClosed: true, timeoutMs: 20_000 });
    expect(answer.closed).toBe(true);
    expect([0, 408]).toContain(answer.status);
  });
});
