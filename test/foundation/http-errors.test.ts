import { describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import { createTestApp } from '../helpers/app.js';
import { firstIssue } from '../helpers/assert.js';
import type { Response } from '../helpers/http.js';
import { probeModule } from './probe-module.js';

const t = useApp(() => createTestApp({ BODY_LIMIT: '4096' }, [probeModule]));

function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String) }),
  });
  expect(
    Object.keys(response.body.error).every((key) => ['code', 'message', 'details'].includes(key)),
  ).toBe(true);
}

describe('error responses', () => {
  it('answers an unknown route with 404 route_not_found on both roots', async () => {
    expectError(await t.http.get('/no/such/route'), 404, 'route_not_found');
    expectError(await t.api.get('/no/such/route'), 404, 'route_not_found');
    expectError(await t.http.post('/health', {}), 404, 'route_not_found');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const response = await t.http.raw({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x",',
    });
    expectError(response, 400, 'invalid_json');
  });

  it('refuses prototype poisoning keys as invalid JSON', async () => {
    const response = await t.http.raw({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "x", "__proto__": {"admin": true}}',
    });
    expectError(response, 400, 'invalid_json');
  });

  it('answers a schema violation with 400 validation_failed naming the place', async () => {
    const wrongType = await t.http.post('/probe/echo', { name: 42 });
    expectError(wrongType, 400, 'validation_failed');
    expect(wrongType.body.error.details).toMatchObject({
      location: 'body',
      issues: [{ path: '/name' }],
    });

    const missing = await t.http.post('/probe/echo', {});
    expectError(missing, 400, 'validation_failed');
    expect(firstIssue(missing.body).path).toBe('/name');

    const tooLong = await t.http.post('/probe/echo', { name: 'x'.repeat(11) });
    expectError(tooLong, 400, 'validation_failed');
  });

  it('does not coerce body types', async () => {
    expectError(
      await t.http.post('/probe/echo', { name: 'a', count: '3' }),
      400,
      'validation_failed',
    );
    expectError(
      await t.http.post('/probe/echo', { name: 'a', count: 1.5 }),
      400,
      'validation_failed',
    );
  });

  it('refuses unknown body fields and unknown query parameters', async () => {
    const body = await t.http.post('/probe/echo', { name: 'a', extra: true });
    expectError(body, 400, 'validation_failed');
    expect(firstIssue(body.body)).toEqual({
      path: '/extra',
      message: 'is not a known property',
    });
    const query = await t.http.post('/probe/echo', { name: 'a' }, { query: { other: '1' } });
    expectError(query, 400, 'validation_failed');
    expect(query.body.error.details).toMatchObject({ location: 'querystring' });
  });

  it('coerces query strings to their declared types', async () => {
    expect(
      (await t.http.post('/probe/echo', { name: 'a' }, { query: { flag: 'true' } })).status,
    ).toBe(200);
    expectError(
      await t.http.post('/probe/echo', { name: 'a' }, { query: { flag: 'maybe' } }),
      400,
      'validation_failed',
    );
  });

  it('refuses a body that is not an object', async () => {
    expectError(await t.http.post('/probe/echo', [1, 2]), 400, 'validation_failed');
    const nothing = await t.http.raw({ method: 'POST', url: '/probe/echo' });
    expectError(nothing, 400, 'validation_failed');
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const response = await t.http.post('/probe/echo', { name: 'x'.repeat(10_000) });
    expectError(response, 413, 'payload_too_large');
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await t.http.raw({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<name>x</name>',
    });
    expectError(response, 415, 'unsupported_media_type');
  });

  it('answers an unexpected fault with 500 internal_error and hides its detail', async () => {
    const response = await t.http.get('/probe/fault');
    expectError(response, 500, 'internal_error');
    expect(response.text).not.toContain('secret detail');
  });

  it('answers a malformed URL with 400', async () => {
    expectError(await t.http.raw({ method: 'GET', url: '/probe/things/%zz' }), 400, 'invalid_url');
  });

  it('returns a request id header and keeps a sane incoming one', async () => {
    const generated = await t.http.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.http.get('/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await t.http.get('/health', { headers: { 'x-request-id': 'bad id\u0001' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\u0001');
  });
});

describe('path UUIDs', () => {
  const accepted = [
    '0190d6e2-3c4b-7def-8123-456789abcdef',
    '0190D6E2-3C4B-7DEF-A123-456789ABCDEF',
    '00000000-0000-1000-8000-000000000000',
    'c9bf9e57-1685-4c89-bafb-ff5af830be8a',
    '00000000-0000-8000-b000-000000000000',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  ];
  const refused = [
    'not-a-uuid',
    '0190d6e2-3c4b-0def-8123-456789abcdef',
    '0190d6e2-3c4b-9def-8123-456789abcdef',
    '0190d6e2-3c4b-7def-c123-456789abcdef',
    '0190d6e2-3c4b-7def-7123-456789abcdef',
    '0190d6e23c4b7def8123456789abcdef',
    '{0190d6e2-3c4b-7def-8123-456789abcdef}',
    '0190d6e2-3c4b-7def-8123-456789abcdeg',
    '0190d6e2-3c4b-7def-8123-456789abcdef0',
    '00000000-0000-0000-0000-000000000001',
    'ffffffff-ffff-ffff-ffff-fffffffffffe',
    ' 0190d6e2-3c4b-7def-8123-456789abcdef',
  ];

  it.each(accepted)('accepts %s', async (id) => {
    const response = await t.http.get(`/probe/things/${encodeURIComponent(id)}`);
    expect(response.status).toBe(200);
    // A route of the probe module, which the description does not list; UUIDs reach it lowercase.
    expect(response.body).toMatchObject({ thingId: id.toLowerCase() });
  });

  it.each(refused)('refuses %j with 400', async (id) => {
    const response = await t.api.get(`/probe/things/${encodeURIComponent(id)}`);
    expectError(response, 400, 'validation_failed');
    expect(response.body.error.details).toMatchObject({ location: 'params' });
  });
});

describe('route access', () => {
  it('refuses a route that declares no access to everyone', async () => {
    expectError(await t.http.get('/probe/undeclared'), 403, 'route_not_accessible');
  });

  it('answers 401 for missing, malformed and unknown credentials', async () => {
    expectError(await t.http.get('/probe/who'), 401, 'unauthenticated');
    expectError(
      await t.http.get('/probe/who', { headers: { authorization: 'Basic dXNlcjpwdw==' } }),
      401,
      'malformed_authorization',
    );
    expectError(
      await t.http.get('/probe/who', { headers: { authorization: 'Bearer' } }),
      401,
      'malformed_authorization',
    );
    expectError(
      await t.http.get('/probe/who', { token: 'ses_unknown-token-value' }),
      401,
      'invalid_token',
    );
    expectError(
      await t.http.get('/probe/who', { token: 'xyz_not-a-known-kind' }),
      401,
      'invalid_token',
    );
    expectError(await t.http.get('/probe/who', { token: 'ses_bad%chars!!' }), 401, 'invalid_token');
    expectError(
      await t.http.get('/probe/who', { cookies: { session: 'ses_nope-nope-nope' } }),
      401,
      'invalid_token',
    );
  });
});
