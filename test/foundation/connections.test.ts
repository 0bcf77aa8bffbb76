import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useApp } from '../fixtures/app.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createWorkspace } from '../helpers/factories.js';
import { createOrg } from '../helpers/platform.js';
import { edgeModule, errorCode, exchange, expectError, type Step } from './edge-helpers.js';

/** Connections over real sockets: errors of Node's HTTP parser, and the server's timeouts. */

const t = useApp(() => createTestApp({}, [edgeModule]));
let port: number;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

describe('errors of the HTTP parser and the framework', () => {
  it('answers a malformed request line in the Error schema', async () => {
    const answer = await exchange(port, ['NOT A REQUEST\r\n\r\n']);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('bad_request');
  });

  it('answers a malformed request that follows an answer on a kept-alive connection', async () => {
    const answer = await exchange(
      port,
      ['GET /health HTTP/1.1\r\nHost: edge\r\n\r\n', { waitMs: 300 }, 'BROKEN\r\n\r\n'],
      10_000,
      2,
    );
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('bad_request');
  });

  it('answers a request in progress whole before refusing a malformed one pipelined behind it', async () => {
    const request = 'GET /edge/slow?ms=400 HTTP/1.1\r\nHost: edge\r\n\r\nBROKEN\r\n\r\n';
    const [first, second] = await Promise.all([
      exchange(port, [request], 10_000, 1),
      exchange(port, [request], 10_000, 2),
    ]);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ slept: 400 });
    expect(second.status).toBe(400);
    expect(errorCode(second)).toBe('bad_request');
  });

  it('answers headers too large with 431 headers_too_large', async () => {
    const answer = await exchange(port, [
      `GET /health HTTP/1.1\r\nHost: edge\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    ]);
    expect(answer.status).toBe(431);
    expect(errorCode(answer)).toBe('headers_too_large');
  });

  it('gives other client errors of plugins a code of their status', async () => {
    expectError(await t.http.get('/edge/status/413'), 413, 'payload_too_large');
    expectError(await t.http.get('/edge/status/406'), 400, 'invalid_request');
    expectError(await t.http.get('/edge/status/418'), 400, 'invalid_request');
  });
});

describe('server timeouts', () => {
  let timed: TestApp;
  let timedPort: number;

  beforeAll(async () => {
    timed = await createTestApp(
      {
        HTTP_IDLE_TIMEOUT_MS: '300',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
        HTTP_HEADERS_TIMEOUT_MS: '400',
        HTTP_REQUEST_TIMEOUT_MS: '1000',
      },
      [edgeModule],
    );
    await timed.app.listen({ port: 0, host: '127.0.0.1' });
    timedPort = (timed.app.server.address() as AddressInfo).port;
  });
  afterAll(() => timed.close());

  it('closes 500 idle connections', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, () => exchange(timedPort, [], 5000)),
    );
    for (const answer of answers) {
      expect(answer.status).toBeNull();
      expect(answer.elapsedMs).toBeLessThan(2000);
    }
  });

  it('closes a kept-alive connection after its keep-alive timeout', async () => {
    const started = Date.now();
    const closed = await new Promise<number>((resolve) => {
      const socket = connect(timedPort, '127.0.0.1');
      socket.on('data', () => {});
      socket.on('close', () => resolve(Date.now() - started));
      socket.write('GET /health HTTP/1.1\r\nHost: edge\r\n\r\n');
    });
    // Node adds a second to the keep-alive timeout, for the client to close first.
    expect(closed).toBeLessThan(3000);
  });

  it('answers 408 to headers sent too slowly, and to a body that stalls', async () => {
    const trickle: Step[] = ['GET /health HTTP/1.1\r\n'];
    for (let i = 0; i < 30; i++) trickle.push({ waitMs: 100 }, `X-Slow-${i}: a\r\n`);
    const slowHeaders = await exchange(timedPort, trickle, 5000);
    expect(slowHeaders.status).toBe(408);
    expect(errorCode(slowHeaders)).toBe('request_timeout');

    const stalled = await exchange(
      timedPort,
      [
        'POST /auth/login HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      ],
      5000,
    );
    expect(stalled.status).toBe(408);
    expect(errorCode(stalled)).toBe('request_timeout');
  });

  it('answers 408 to an upload that stalls', async () => {
    const owner = await createWorkspace(timed);
    const part = `--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello`;
    const answer = await exchange(timedPort, [
      `POST /workspaces/${owner.id}/files HTTP/1.1\r\nHost: edge\r\n` +
        `Authorization: Bearer ${owner.owner.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${part.length + 100}\r\n\r\n${part}`,
    ]);
    expect(answer.status).toBe(408);
    expect(errorCode(answer)).toBe('request_timeout');
  });

  it('waits for a server that reads a body late', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(500_000) });
    const answer = await exchange(timedPort, [
      'POST /edge/late-reader HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    ]);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ length: 500_000 });
  });

  it('lets a handler take longer than every timeout', async () => {
    const answer = await exchange(
      timedPort,
      ['GET /edge/slow?ms=1500 HTTP/1.1\r\nHost: edge\r\n\r\n'],
      5000,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ slept: 1500 });
  });

  it('leaves an upgraded WebSocket open past every timeout', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${timedPort}/edge/socket`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(socket.readyState).toBe(WebSocket.OPEN);
    const echo = new Promise<string>((resolve) =>
      socket.once('message', (data) => resolve(String(data))),
    );
    socket.send('still here');
    expect(await echo).toBe('echo still here');
    socket.close();
  });

  it('does not apply to an agent link either', async () => {
    const owner = (await createWorkspace(timed)).owner;
    const org = await createOrg(timed, owner);
    const node = await timed.api.post(
      `/orgs/${org.id}/nodes`,
      { name: `node-${randomUUID().slice(0, 8)}` },
      { token: owner.token },
    );
    expect(node.status).toBe(201);
    const socket = new WebSocket(
      `ws://127.0.0.1:${timedPort}/api/agent/connect?token=${node.body.token}`,
    );
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => {});
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('unexpected-response', () => reject(new Error('refused')));
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(closed).toBe(false);
    socket.close();
  });
});
