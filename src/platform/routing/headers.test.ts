import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { forwardedRequestHeaders, forwardedResponseHeaders } from './headers.js';

function incoming(headers: Record<string, string>, rawHeaders: string[] = []): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.headers = headers;
  message.rawHeaders = rawHeaders;
  return message;
}

describe('forwarding headers', () => {
  const request = incoming({
    host: 'svc-1.svc.localhost:8080',
    connection: 'keep-alive, x-hop',
    'x-hop': 'one hop only',
    'keep-alive': 'timeout=5',
    'x-forwarded-for': '203.0.113.9',
    'x-forwarded-proto': 'https',
    'x-service-token': 'spk_secret',
    accept: 'text/html',
  });

  it('drops hop-by-hop headers, those the Connection header names, and those to remove', () => {
    const headers = forwardedRequestHeaders(request, ['X-Service-Token'], false);
    expect(headers).toMatchObject({ host: 'svc-1.svc.localhost:8080', accept: 'text/html' });
    for (const name of ['connection', 'x-hop', 'keep-alive', 'x-service-token']) {
      expect(headers).not.toHaveProperty(name);
    }
  });

  it("sets X-Forwarded-* itself, ignoring a client's own unless the front proxy is trusted", () => {
    const untrusted = forwardedRequestHeaders(request, [], false);
    expect(untrusted['x-forwarded-proto']).toBe('http');
    expect(untrusted['x-forwarded-host']).toBe('svc-1.svc.localhost:8080');
    expect(untrusted['x-forwarded-for']).not.toContain('203.0.113.9');
    const trusted = forwardedRequestHeaders(request, [], true);
    expect(trusted['x-forwarded-proto']).toBe('https');
    expect(String(trusted['x-forwarded-for'])).toMatch(/^203\.0\.113\.9, /);
  });

  it("passes the response's headers in their case, without hop-by-hop ones, with cookies added", () => {
    const response = incoming({ connection: 'close' }, [
      'Content-Type',
      'text/plain',
      'Connection',
      'close',
      'Transfer-Encoding',
      'chunked',
      'Set-Cookie',
      'a=1',
    ]);
    expect(forwardedResponseHeaders(response, ['b=2'])).toEqual([
      'Content-Type',
      'text/plain',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ]);
  });
});
