import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers/app.js';
import { createWorkspace } from '../test/helpers/factories.js';
import type { EventSink } from './events/writer.js';
import type { AppModule } from './module.js';

/** An OpenID discovery document that counts how often it is fetched. */
async function startDiscovery(): Promise<{ issuer: string; fetched(): number; close(): void }> {
  let fetched = 0;
  const server: Server = createServer((request, response) => {
    if (request.url !== '/.well-known/openid-configuration') {
      response.writeHead(404).end();
      return;
    }
    fetched += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, fetched: () => fetched, close: () => server.close() };
}

let idp: Awaited<ReturnType<typeof startDiscovery>>;
let recorded: string[];
let withSink: TestApp;
let without: TestApp;
beforeAll(async () => {
  idp = await startDiscovery();
  recorded = [];
  const sink: EventSink = {
    async write(_db, records) {
      for (const record of records) recorded.push(record.workspaceId);
    },
  };
  const recording: AppModule = { name: 'recording', eventSinks: [sink] };
  const env = { IDP_ISSUER: idp.issuer, IDP_CLIENT_ID: 'sparrow' };
  withSink = await createTestApp(env, [recording]);
  without = await createTestApp(env);
});
afterAll(async () => {
  await withSink?.close();
  await without?.close();
  idp?.close();
});

// Tests build many apps in one process: what one app holds must not reach another.
describe('two apps in one process', () => {
  it('run their own event sinks only', async () => {
    const theirs = await createWorkspace(without);
    expect(recorded).not.toContain(theirs.id);
    const mine = await createWorkspace(withSink);
    expect(recorded).toContain(mine.id);
  });

  it('discover the identity provider each for itself', async () => {
    for (const t of [withSink, without]) {
      const response = await t.api.get('/auth/idp/start', {});
      expect(response.status).toBe(302);
    }
    expect(idp.fetched()).toBe(2);
    expect(withSink.ctx.identityProviders).not.toBe(without.ctx.identityProviders);
  });

  it('hold their own runtime parts', () => {
    const [a, b] = [withSink.ctx, without.ctx];
    expect(a.files).not.toBe(b.files);
    expect(a.agents).not.toBe(b.agents);
    expect(a.jobs.kinds).not.toBe(b.jobs.kinds);
    expect(a.grants).not.toBe(b.grants);
    expect(a.followers).not.toBe(b.followers);
    expect(a.eventSinks).toHaveLength(b.eventSinks.length + 1);
  });
});
