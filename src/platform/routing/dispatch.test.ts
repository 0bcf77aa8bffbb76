import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { uniqueEmail } from '../../../test/helpers/factories.js';
import { rawExchange } from '../../../test/helpers/recording-service.js';
import { fetchAs } from '../../../test/helpers/service-container.js';

const register = () =>
  JSON.stringify({
    email: uniqueEmail('dispatch'),
    password: `pw-${randomBytes(8).toString('hex')}`,
    name: 'Someone',
  });

/** Whether an answer is the proxy's 404 for a name of the service domain, not the API's. */
function expectNotAService(answer: {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}) {
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'service_not_found' } });
  expect(answer.headers['set-cookie']).toBeUndefined();
}

/**
 * Names under SERVICE_DOMAIN: a service's host, or a 404 in the Error
 * schema; never the API, whose cookies and sign-up would then be on the
 * services' site. The API's own host is still the API's.
 */
describe('hosts under the service domain', () => {
  const bed = useNodeBed({ REGISTRATION_MODE: 'open' });
  let port: number;

  beforeAll(async () => {
    port = Number(new URL(bed.baseUrl).port);
  });

  it('answers 404 for names that are no service, whatever the path', async () => {
    for (const name of [
      'login.svc.localhost',
      'svc-nope.svc.localhost',
      'svc.localhost',
      'a.b.svc.localhost',
    ]) {
      const signUp = await fetchAs(bed.baseUrl, `${name}:${port}`, '/api/auth/register', {
        method: 'POST',
        body: register(),
        headers: { 'content-type': 'application/json' },
      });
      expectNotAService({ ...signUp, body: signUp.body.toString() });
      const me = await fetchAs(bed.baseUrl, name, '/api/users/me');
      expectNotAService({ ...me, body: me.body.toString() });
    }
    // The API's own names still serve it.
    const api = await fetchAs(bed.baseUrl, `127.0.0.1:${port}`, '/api/users/me');
    expect(api.status).toBe(401);
    const local = await fetchAs(bed.baseUrl, `localhost:${port}`, '/api/auth/register', {
      method: 'POST',
      body: register(),
      headers: { 'content-type': 'application/json' },
    });
    expect(local.status).toBe(201);
  });

  it('answers 404 to an upgrade on such a name', async () => {
    const answer = await rawExchange(
      port,
      [
        'GET /api/events HTTP/1.1',
        `Host: login.svc.localhost:${port}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        '',
        '',
      ].join('\r\n'),
    );
    expectNotAService(answer);
  });
});

describe('an API host under the service domain', () => {
  const bed = useNodeBed({
    REGISTRATION_MODE: 'open',
    PUBLIC_URL: 'http://api.apps.example.test',
    SERVICE_DOMAIN: 'apps.example.test',
  });

  it("serves the API on PUBLIC_URL's host and 404 on the domain's other names", async () => {
    const api = await fetchAs(bed.baseUrl, 'api.apps.example.test', '/api/users/me');
    expect(api.status).toBe(401);
    const other = await fetchAs(bed.baseUrl, 'www.apps.example.test', '/api/users/me');
    expectNotAService({ ...other, body: other.body.toString() });
  });
});
