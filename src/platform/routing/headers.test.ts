import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PLATFORM_COOKIES } from '../service-access/access.js';
import { applyFraming, requestFraming } from './framing.js';
import { forwardedRequestHeaders, forwardedResponseHeaders, withoutCookies } from './headers.js';

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

  it('never lets Connection take out the framing or the Host', () => {
    const named = incoming({
      host: 'svc-1.svc.localhost',
      connection: 'Content-Length, Transfer-Encoding, Host, X-Hop',
      'content-length': '5',
      'x-hop': '1',
    });
    const headers = forwardedRequestHeaders(named, [], false);
    expect(headers).toMatchObject({ host: 'svc-1.svc.localhost', 'content-length': '5' });
    expect(headers).not.toHaveProperty('x-hop');
  });

  it("takes the platform's cookies out of Cookie and keeps the others in order", () => {
    const request = incoming({
      cookie: 'a=1; session=ses_x; sparrow_access=svs_y;b=2 ; __Host-sparrow_access_state=s; c',
    });
    expect(forwardedRequestHeaders(request, [], false, PLATFORM_COOKIES).cookie).toBe(
      'a=1; b=2; c',
    );
    expect(withoutCookies('session=ses_x', PLATFORM_COOKIES)).toBeUndefined();
    expect(withoutCookies('sessions=1; xsession=2', PLATFORM_COOKIES)).toBe(
      'sessions=1; xsession=2',
    );
  });
});

describe('request framing', () => {
  it('re-chunks a chunked body, keeps a length, refuses other codings', () => {
    expect(requestFraming({ 'transfer-encoding': 'Chunked' })).toEqual({ kind: 'chunked' });
    expect(requestFraming({ 'content-length': '12' })).toEqual({ kind: 'length', length: 12 });
    expect(requestFraming({})).toEqual({ kind: 'none' });
    for (const coding of ['gzip, chunked', 'chunked, chunked', 'identity', 'xchunked']) {
      expect(requestFraming({ 'transfer-encoding': coding })).toEqual({ kind: 'refused' });
    }
    const headers = { 'transfer-encoding': 'gzip', 'content-length': '3', accept: '*/*' };
    applyFraming(headers, { kind: 'chunked' });
    expect(headers).toEqual({ 'transfer-encoding': 'chunked', accept: '*/*' });
    applyFraming(headers, { kind: 'length', length: 0 });
    expect(headers).toEqual({ 'content-length': '0', accept: '*/*' });
  });
});
