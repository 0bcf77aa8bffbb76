import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import { createTestApp } from '../helpers/app.js';

/** Sends raw bytes; resolves with everything the server sent until it closed. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(text);
  });
}

/** A POST with a body far over the limit, sent in chunks by node:http; the status and body. */
function postLarge(
  port: number,
  bytes: number,
  chunked: boolean,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/auth/login',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': bytes }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const size = Math.min(chunk.length, bytes - sent);
        sent += size;
        if (!request.write(chunk.subarray(0, size))) {
          request.once('drain', write);
          return;
        }
      }
      request.end();
    };
    write();
  });
}

describe('edges of the HTTP connection', () => {
  const t = useApp(() => createTestApp({ BODY_LIMIT: '1024' }));
  let port: number;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  it('answers an HTTP/1.1 request without Host with 400 in the Error schema', async () => {
    const answer = await rawExchange(port, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'host_required' } });
    // HTTP/1.0 has no Host requirement.
    const old = await rawExchange(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers every oversized body sent by node:http with the 413, never a broken pipe', async () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const { status, body } = await postLarge(port, 4 * 1024 * 1024, attempt % 2 === 0);
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'payload_too_large' } });
    }
  });

  it('answers every oversized streamed body sent by fetch with the 413', async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= 4 * 1024 * 1024) return controller.close();
          if (sent % (256 * 1024) === 0) await new Promise((resolve) => setImmediate(resolve));
          sent += 64 * 1024;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        },
      });
      const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    }
  });

  it('answers every oversized body sent by fetch with the 413', async () => {
    const payload = JSON.stringify({ email: 'x@example.test', password: 'a'.repeat(16_000_000) });
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    }
  });
});
