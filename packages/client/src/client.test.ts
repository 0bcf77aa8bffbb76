import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { runDispatcher } from '../../../src/content/webhooks/dispatcher.js';
import { useApp } from '../../../test/fixtures/app.js';
import { createTestApp } from '../../../test/helpers/app.js';
import { createUser, type TestUser } from '../../../test/helpers/factories.js';
import { type Receiver, startReceiver } from '../../../test/helpers/receiver.js';
import { until } from '../../../test/helpers/wait.js';
import {
  createSparrowClient,
  type ErrorCode,
  type Event,
  isSparrowError,
  paginate,
  readEvents,
  type Schema,
  type SparrowClient,
  SparrowError,
  streamEvents,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
} from './index.js';

/** The real application listening on a port, its webhook dispatcher running as `serve` runs it. */
const t = useApp(() =>
  createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' }),
);
let baseUrl = '';
let stopDispatcher: () => Promise<void> = async () => {};
let receiver: Receiver;
let owner: TestUser;
let sparrow: SparrowClient;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  stopDispatcher = await runDispatcher(t.db, t.ctx.config, t.ctx.log);
  receiver = await startReceiver();
  owner = await createUser(t, { name: 'Client owner' });
  sparrow = createSparrowClient({ baseUrl, token: owner.token });
});
afterAll(async () => {
  await stopDispatcher();
  await receiver.close();
});

let slugs = 0;
async function newWorkspace(): Promise<Schema<'WorkspaceMembership'>> {
  slugs += 1;
  return unwrap(
    sparrow.POST('/workspaces', {
      body: { name: 'Client workspace', slug: `client-${slugs}-${Date.now().toString(36)}` },
    }),
  );
}

async function newList(workspaceId: string, keyPrefix: string) {
  return unwrap(
    sparrow.POST('/workspaces/{workspaceId}/collections', {
      params: { path: { workspaceId } },
      body: { name: `List ${keyPrefix}`, keyPrefix },
    }),
  );
}

async function newCard(workspaceId: string, collectionId: string, title: string) {
  return unwrap(
    sparrow.POST('/workspaces/{workspaceId}/collections/{collectionId}/items', {
      params: { path: { workspaceId, collectionId } },
      body: { title },
    }),
  );
}

describe('typed calls', () => {
  it('creates and reads a workspace, a list and a card, typed from the description', async () => {
    const workspace = await newWorkspace();
    expectTypeOf(workspace).toEqualTypeOf<Schema<'WorkspaceMembership'>>();
    expect(workspace.role).toBe('owner');
    const read = await unwrap(
      sparrow.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId: workspace.id } } }),
    );
    expect(read.slug).toBe(workspace.slug);
    const list = await newList(workspace.id, 'CL');
    const card = await newCard(workspace.id, list.id, 'First card');
    expectTypeOf(card).toEqualTypeOf<Schema<'ItemDetail'>>();
    expect(card).toMatchObject({ title: 'First card', key: 'CL-1' });
  });

  it('calls content paths under /api when only that root is reachable', async () => {
    const viaApi = createSparrowClient({ baseUrl, token: owner.token, contentRoot: '/api' });
    const seen: string[] = [];
    const recording = createSparrowClient({
      baseUrl,
      token: owner.token,
      contentRoot: '/api',
      fetch: (input, init) => {
        seen.push(input instanceof Request ? new URL(input.url).pathname : String(input));
        return fetch(input, init);
      },
    });
    const list = await unwrap(viaApi.GET('/workspaces'));
    expect(list.length).toBeGreaterThan(0);
    await unwrap(recording.GET('/workspaces'));
    await unwrap(recording.GET('/api/users/me'));
    expect(seen).toEqual(['/api/workspaces', '/api/users/me']);
  });
});

describe('errors', () => {
  it('throws a SparrowError with the catalog code, typed', async () => {
    const unknown = '0190f0f0-0000-7000-8000-000000000000';
    const error = await unwrap(
      sparrow.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId: unknown } } }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SparrowError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expectTypeOf<SparrowError['code']>().toEqualTypeOf<ErrorCode | 'unexpected_response'>();
    expectTypeOf<'slug_taken'>().toExtend<ErrorCode>();

    const workspace = await newWorkspace();
    const taken = await unwrap(
      sparrow.POST('/workspaces', { body: { name: 'Again', slug: workspace.slug } }),
    ).catch((caught: unknown) => caught);
    expect(isSparrowError(taken, 'slug_taken')).toBe(true);
    expect(taken).toMatchObject({ status: 409 });

    const anonymous = createSparrowClient({ baseUrl });
    const refused = await unwrap(anonymous.GET('/workspaces')).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 401, code: 'unauthenticated' });
  });
});

describe('pagination', () => {
  it('pages a query across several pages, items in order, each once', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'PG');
    const titles = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    for (const title of titles) await newCard(workspace.id, list.id, title);
    const init = {
      params: { path: { workspaceId: workspace.id, collectionId: list.id } },
      body: { definition: {}, limit: 3 },
    };
    const path = '/workspaces/{workspaceId}/collections/{collectionId}/query' as const;
    const pages = [];
    for await (const page of paginate(sparrow, path, init).pages()) pages.push(page);
    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
    expect(pages.at(-1)?.nextCursor).toBeNull();

    const cards = [];
    for await (const card of paginate(sparrow, path, init)) cards.push(card.title);
    expect(cards).toEqual(titles);
    expect(await paginate(sparrow, path, init).all(4)).toHaveLength(4);
  });

  it('pages the event log with since (asc) and before (desc)', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'EV');
    for (const title of ['a', 'b', 'c', 'd']) await newCard(workspace.id, list.id, title);
    const path = '/workspaces/{workspaceId}/events' as const;
    const asc = await paginate(sparrow, path, {
      params: { path: { workspaceId: workspace.id }, query: { limit: 2 } },
    }).all();
    const desc = await paginate(sparrow, path, {
      params: { path: { workspaceId: workspace.id }, query: { limit: 2, order: 'desc' } },
    }).all();
    expect(asc.length).toBeGreaterThanOrEqual(5);
    expect(desc.map((event) => event.id)).toEqual(asc.map((event) => event.id).reverse());
    expectTypeOf(asc).toEqualTypeOf<Event[]>();
  });
});

describe('events', () => {
  it('reads the log with since, and resumes from a saved cursor', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'RD');
    await newCard(workspace.id, list.id, 'Logged');
    const seen: Event[] = [];
    for await (const event of readEvents(sparrow, workspace.id, { limit: 2 })) seen.push(event);
    expect(seen.map((event) => event.type)).toContain('item.created');
    const cursor = seen.at(-1)?.id;
    await newCard(workspace.id, list.id, 'After the cursor');
    const after: Event[] = [];
    for await (const event of readEvents(sparrow, workspace.id, { since: cursor }))
      after.push(event);
    expect(after).toHaveLength(1);
    expect(after[0]?.changes.title?.after).toBe('After the cursor');
  });

  it('follows the log with a poll until stopped', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'PL');
    const stop = new AbortController();
    const events = readEvents(sparrow, workspace.id, {
      type: ['item.created'],
      pollMs: 20,
      signal: stop.signal,
    });
    setTimeout(() => void newCard(workspace.id, list.id, 'Polled'), 100);
    const { value } = await events.next();
    stop.abort();
    expect(value).toMatchObject({ type: 'item.created', changes: { title: { after: 'Polled' } } });
    expect((await events.next()).done).toBe(true);
  });

  it('streams an event live, after ready', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'LV');
    const stop = new AbortController();
    let ready = false;
    const stream = streamEvents(sparrow, workspace.id, {
      type: ['item.created'],
      signal: stop.signal,
      onReady: () => {
        ready = true;
        void newCard(workspace.id, list.id, 'Live');
      },
    });
    const { value } = await stream.next();
    stop.abort();
    await stream.return?.(undefined);
    expect(ready).toBe(true);
    expect(value).toMatchObject({ type: 'item.created', changes: { title: { after: 'Live' } } });
  });

  it('reconnects a stream that drops, after the last event, with Last-Event-ID', async () => {
    const workspace = await newWorkspace();
    const list = await newList(workspace.id, 'RC');
    const opened: Array<string | null> = [];
    let dropped = false;
    // The first stream's body ends right after its first event, as a dropped connection would.
    const dropping: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/events/stream')) return response;
      opened.push(new Headers(init?.headers).get('last-event-id'));
      if (dropped || response.body === null) return response;
      dropped = true;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          if (new TextDecoder().decode(value).includes('data: {"id"')) {
            controller.close();
            await reader.cancel();
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = createSparrowClient({ baseUrl, token: owner.token, fetch: dropping });
    const stop = new AbortController();
    const stream = streamEvents(client, workspace.id, {
      type: ['item.created'],
      signal: stop.signal,
      onReady: () => void newCard(workspace.id, list.id, opened.length === 1 ? 'First' : 'x'),
    });
    const first = await stream.next();
    expect(first.value).toMatchObject({ changes: { title: { after: 'First' } } });
    const firstId = first.value?.id;
    const second = await stream.next();
    stop.abort();
    await stream.return?.(undefined);
    expect(opened).toEqual([null, firstId]);
    expect(second.value).toMatchObject({ changes: { title: { after: 'x' } } });
    expect(second.value?.id).not.toBe(firstId);
  });

  it('throws the refusal of a stream as a SparrowError', async () => {
    const stream = streamEvents(sparrow, '0190f0f0-0000-7000-8000-000000000000');
    await expect(stream.next()).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('webhooks', () => {
  it('verifies a delivery the server sent, and refuses a tampered body and an old timestamp', async () => {
    const workspace = await newWorkspace();
    const endpoint = await unwrap(
      sparrow.POST('/workspaces/{workspaceId}/webhooks', {
        params: { path: { workspaceId: workspace.id } },
        body: { url: receiver.url, eventTypes: ['item.created'] },
      }),
    );
    const list = await newList(workspace.id, 'WH');
    const before = receiver.received.length;
    const card = await newCard(workspace.id, list.id, 'Delivered');
    await until(() => receiver.received.length > before, 'a delivery');
    const request = receiver.received[before];
    if (request === undefined) throw new Error('no delivery');
    const signature = String(request.headers['x-service-signature']);

    const delivery = await verifyWebhook({
      body: request.raw,
      signature,
      secret: endpoint.secret,
    });
    expect(delivery.kind).toBe('event');
    if (delivery.kind !== 'event') return;
    expect(delivery.event.resource.id).toBe(card.id);
    expect(delivery.type).toBe('item.created');
    const bytes = await verifyWebhook({
      body: new TextEncoder().encode(request.raw),
      signature,
      secret: endpoint.secret,
    });
    expect(bytes.deliveryId).toBe(delivery.deliveryId);

    const refusal = (options: Parameters<typeof verifyWebhook>[0]) =>
      verifyWebhook(options).then(
        () => 'accepted',
        (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : error),
      );
    const tampered = request.raw.replace('Delivered', 'Tampered');
    expect(tampered).not.toBe(request.raw);
    expect(await refusal({ body: tampered, signature, secret: endpoint.secret })).toBe(
      'signature_mismatch',
    );
    expect(await refusal({ body: request.raw, signature, secret: 'whsec_wrong' })).toBe(
      'signature_mismatch',
    );
    const later = new Date(Date.now() + 10 * 60 * 1000);
    expect(
      await refusal({ body: request.raw, signature, secret: endpoint.secret, now: later }),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      await refusal({
        body: request.raw,
        signature,
        secret: endpoint.secret,
        now: later,
        toleranceSeconds: 3600,
      }),
    ).toBe('accepted');
    expect(await refusal({ body: request.raw, signature: null, secret: endpoint.secret })).toBe(
      'missing_signature',
    );
    expect(
      await refusal({ body: request.raw, signature: 't=1,v1=zz', secret: endpoint.secret }),
    ).toBe('malformed_signature');
  });
});
