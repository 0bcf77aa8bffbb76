import Stripe from 'stripe';
import { afterAll, afterEach, assert, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createTestApp } from '../../../test/helpers/app.js';
import { at, present } from '../../../test/helpers/assert.js';
import {
  addMember,
  createCollection,
  createItem,
  createWorkspace,
  insertItems,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';
import {
  batchReadPath,
  findBatch,
  type Receiver,
  startReceiver,
} from '../../../test/helpers/receiver.js';
import { inTransaction } from '../../db/transaction.js';
import { recordEvents } from '../../events/writer.js';
import { newId } from '../../lib/ids.js';
import { runDispatcher, WebhookDispatcher } from './dispatcher.js';

const stripe = new Stripe('sk_test_not_used_for_network');

const t = useApp(() =>
  createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '0,0,0,0,0' }),
);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.respond(200));
afterAll(async () => {
  await receiver.close();
});

async function createEndpoint(
  workspace: TestWorkspace,
  body: Record<string, unknown> = {},
  token = workspace.owner.token,
) {
  return t.http.post(
    `/workspaces/${workspace.id}/webhooks`,
    { url: receiver.url, eventTypes: ['*'], ...body },
    { token },
  );
}

function dispatcher(now?: () => Date) {
  return new WebhookDispatcher(t.db, t.ctx.config, t.ctx.log, now ? { now } : {});
}

/** Runs dispatch cycles until nothing is due. */
async function drain(d = dispatcher()) {
  let total = 0;
  for (let cycle = 0; cycle < 50; cycle++) {
    const attempted = await d.runOnce();
    total += attempted;
    if (attempted === 0) break;
  }
  return total;
}

/** Waits up to 10 s for the receiver to hold `count` requests. */
async function arrived(own: Receiver, count: number) {
  const deadline = Date.now() + 10_000;
  while (own.received.length < count) {
    if (Date.now() > deadline)
      throw new Error(`${own.received.length} of ${count} arrived in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function deliveries(workspace: TestWorkspace, endpointId: string) {
  const response = await t.http.get(
    `/workspaces/${workspace.id}/webhooks/${endpointId}/deliveries`,
    {
      token: workspace.owner.token,
      query: { limit: '200' },
    },
  );
  expect(response.status).toBe(200);
  return response.body.deliveries;
}

describe('webhook endpoints', () => {
  it('creates an endpoint, showing the secret once', async () => {
    const workspace = await createWorkspace(t);
    const created = await createEndpoint(workspace, { eventTypes: ['item.*', 'field.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: receiver.url,
      eventTypes: ['item.*', 'field.created'],
      state: 'active',
      consecutiveFailures: 0,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await t.http.get(`/workspaces/${workspace.id}/webhooks`, {
      token: workspace.owner.token,
    });
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(created.body.secret);
    expect(at(list.body, 0).secretPrefix).toBe(created.body.secret.slice(0, 10));
  });

  it('refuses no credential, bad input and callers below admin', async () => {
    const workspace = await createWorkspace(t);
    expect(
      (
        await t.http.post(`/workspaces/${workspace.id}/webhooks`, {
          url: receiver.url,
          eventTypes: ['*'],
        })
      ).status,
    ).toBe(401);
    for (const eventTypes of [['item.nothing'], ['nothing.*'], ['item'], ['*.created'], []]) {
      const response = await createEndpoint(workspace, { eventTypes });
      expect(response.status, JSON.stringify(eventTypes)).toBe(400);
    }
    expect(
      (await createEndpoint(workspace, { eventTypes: ['item.nothing'] })).body.error.code,
    ).toBe('unknown_event_type');
    for (const url of ['ftp://example.test/x', 'not a url', 'https://user:pw@example.test/x']) {
      const response = await createEndpoint(workspace, { url });
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('invalid_webhook_url');
    }
    expect((await createEndpoint(workspace, { extra: 1 })).status).toBe(400);
    const member = await addMember(t, workspace, 'member');
    expect((await createEndpoint(workspace, {}, member.token)).status).toBe(403);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/webhooks`, { token: member.token })).status,
    ).toBe(403);
  });

  it('updates, pauses, resumes and deletes', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace)).body;
    const path = `/workspaces/${workspace.id}/webhooks/${endpoint.id}` as const;
    const token = workspace.owner.token;
    const updated = await t.http.patch(path, { eventTypes: ['collection.*'] }, { token });
    expect(updated.body.eventTypes).toEqual(['collection.*']);
    expect((await t.http.patch(path, { eventTypes: ['bogus'] }, { token })).status).toBe(400);
    const paused = await t.http.post(`${path}/pause`, undefined, { token });
    expect(paused.body).toMatchObject({ state: 'paused', pauseReason: 'manual' });
    const resumed = await t.http.post(`${path}/resume`, undefined, { token });
    expect(resumed.body).toMatchObject({ state: 'active', pauseReason: null, pausedAt: null });
    expect((await t.http.delete(path, { token })).status).toBe(204);
    expect((await t.http.get(path, { token })).status).toBe(404);
  });
});

describe('deliveries', () => {
  it('signs a single event the way Stripe’s verifier accepts, with ids to de-duplicate', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['item.created'] })).body;
    const list = await createCollection(t, workspace);
    await drain();
    const before = receiver.received.length;
    const item = await createItem(t, workspace, list.id, { title: 'Signed' });
    expect(await drain()).toBe(1);
    const [request] = receiver.received.slice(before);
    expect(request).toBeDefined();
    if (request === undefined) return;
    const signature = String(request.headers['x-service-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const verified = stripe.webhooks.constructEvent(request.raw, signature, endpoint.secret);
    expect(verified).toMatchObject({ kind: 'event', type: 'item.created' });
    expect(() => stripe.webhooks.constructEvent(request.raw, signature, 'whsec_wrong')).toThrow();
    const delivery = at(await deliveries(workspace, endpoint.id), 0);
    expect(request.headers['x-service-delivery']).toBe(delivery.id);
    expect(request.headers['x-service-event']).toBe('item.created');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toMatchObject({
      kind: 'event',
      deliveryId: delivery.id,
      workspaceId: workspace.id,
      type: 'item.created',
      event: { type: 'item.created', resource: { kind: 'item', id: item.id }, cause: 'edit' },
    });
    const body = request.body;
    assert(body.kind === 'event', 'a delivery of one event');
    expect(body.eventIds).toEqual([body.event.id]);
    expect(delivery).toMatchObject({
      kind: 'event',
      state: 'succeeded',
      attemptCount: 1,
      lastStatusCode: 200,
      eventId: body.event.id,
    });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, statusCode: 200, error: null, succeeded: true }),
    ]);
  });

  it('filters by pattern when queueing, and queues nothing for a rolled-back change', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['collection.*'] })).body;
    const list = await createCollection(t, workspace);
    await createItem(t, workspace, list.id);
    await drain();
    await expect(
      inTransaction(t.db, async (trx) => {
        await recordEvents(
          trx,
          {
            workspaceId: workspace.id,
            actor: { kind: 'user', label: 'x' },
            sinks: t.ctx.eventSinks,
          },
          [
            {
              type: 'collection.updated',
              resource: { kind: 'collection', id: list.id },
              changes: { name: { before: 'a', after: 'b' } },
            },
          ],
        );
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const queued = await deliveries(workspace, endpoint.id);
    expect(queued.map((delivery) => delivery.eventType)).toEqual(['collection.created']);
    expect(at(queued, 0).state).toBe('succeeded');
  });

  it('retries after 10 s, 30 s, 2 min, 10 min and 1 h, then fails for good', async () => {
    const slow = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const workspace = await createWorkspace(slow);
      const created = await slow.http.post(
        `/workspaces/${workspace.id}/webhooks`,
        { url: receiver.url, eventTypes: ['*'] },
        { token: workspace.owner.token },
      );
      await slow.http.patch(
        `/workspaces/${workspace.id}`,
        { name: 'Renamed' },
        { token: workspace.owner.token },
      );
      receiver.respond(500);
      let clock = Date.now() + 1000;
      const d = new WebhookDispatcher(slow.db, slow.ctx.config, slow.ctx.log, {
        now: () => new Date(clock),
      });
      const attemptsAt: number[] = [];
      const waits = [0, 10_000, 30_000, 120_000, 600_000, 3_600_000];
      for (const wait of waits) {
        clock += wait - 1;
        expect(await d.runOnce(), `not yet due after ${wait - 1} ms`).toBe(wait === 0 ? 1 : 0);
        if (wait === 0) {
          attemptsAt.push(clock);
          continue;
        }
        clock += 1;
        expect(await d.runOnce()).toBe(1);
        attemptsAt.push(clock);
      }
      clock += 10 * 3_600_000;
      expect(await d.runOnce()).toBe(0);
      const page = await slow.http.get(
        `/workspaces/${workspace.id}/webhooks/${created.body.id}/deliveries`,
        { token: workspace.owner.token },
      );
      const delivery = at(page.body.deliveries, 0);
      expect(delivery).toMatchObject({
        state: 'failed',
        attemptCount: 6,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: null,
      });
      expect(delivery.attempts.map((attempt) => attempt.number)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(
        delivery.attempts.every(
          (attempt) => attempt.statusCode === 500 && !attempt.succeeded && attempt.durationMs >= 0,
        ),
      ).toBe(true);
      await d.close();
    } finally {
      receiver.respond(200);
      await slow.close();
    }
  });

  it('pauses an endpoint after 10 consecutive failures, loses nothing, and resume sends it all', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['item.created'] })).body;
    const list = await createCollection(t, workspace);
    const d = dispatcher();
    await drain(d);
    receiver.respond(503);
    for (let index = 0; index < 10; index++) await createItem(t, workspace, list.id);
    expect(await d.runOnce()).toBe(10);
    const path = `/workspaces/${workspace.id}/webhooks/${endpoint.id}`;
    const paused = await t.http.get(path, { token: workspace.owner.token });
    expect(paused.body).toMatchObject({
      state: 'paused',
      pauseReason: 'failures',
      consecutiveFailures: 10,
    });
    await createItem(t, workspace, list.id, { title: 'While paused' });
    expect(await d.runOnce()).toBe(0);
    receiver.respond(200);
    const before = receiver.received.length;
    const resumed = await t.http.post(`${path}/resume`, undefined, {
      token: workspace.owner.token,
    });
    expect(resumed.body).toMatchObject({ state: 'active', consecutiveFailures: 0 });
    expect(await drain(d)).toBe(11);
    expect(receiver.received.length - before).toBe(11);
    const all = await deliveries(workspace, endpoint.id);
    expect(all).toHaveLength(11);
    expect(all.every((delivery) => delivery.state === 'succeeded')).toBe(true);
  });

  it.runIf(process.env.TEST_DATABASE_URL !== undefined)(
    'wakes the running dispatcher at resume and at replay, not at its next poll',
    async () => {
      const own = await startReceiver();
      const workspace = await createWorkspace(t);
      const endpoint = (
        await t.http.post(
          `/workspaces/${workspace.id}/webhooks`,
          { url: own.url, eventTypes: ['item.created'] },
          { token: workspace.owner.token },
        )
      ).body;
      const path = `/workspaces/${workspace.id}/webhooks/${endpoint.id}` as const;
      const token = workspace.owner.token;
      await t.http.post(`${path}/pause`, undefined, { token });
      const list = await createCollection(t, workspace);
      await createItem(t, workspace, list.id, { title: 'While paused' });
      // Polling once a minute: only a notification can deliver within the test's time.
      const stop = await runDispatcher(
        t.db,
        { ...t.ctx.config, webhookPollIntervalMs: 60_000 },
        t.ctx.log,
      );
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(own.received).toHaveLength(0);
        await t.http.post(`${path}/resume`, undefined, { token });
        await arrived(own, 1);
        const [delivery] = await deliveries(workspace, endpoint.id);
        await t.http.post(`${path}/deliveries/${present(delivery).id}/replay`, undefined, {
          token,
        });
        await arrived(own, 2);
      } finally {
        await stop();
        await own.close();
      }
    },
  );

  it('replays a delivery as a new attempt with the same delivery id', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace)).body;
    await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Again' },
      { token: workspace.owner.token },
    );
    await drain();
    const delivery = at(await deliveries(workspace, endpoint.id), 0);
    const path =
      `/workspaces/${workspace.id}/webhooks/${endpoint.id}/deliveries/${delivery.id}` as const;
    const viewer = await addMember(t, workspace, 'viewer');
    expect((await t.http.post(`${path}/replay`, undefined, { token: viewer.token })).status).toBe(
      403,
    );
    const replayed = await t.http.post(`${path}/replay`, undefined, {
      token: workspace.owner.token,
    });
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ state: 'pending', attemptCount: 1 });
    const before = receiver.received.length;
    expect(await drain()).toBe(1);
    expect(
      receiver.received.slice(before).map((entry) => entry.headers['x-service-delivery']),
    ).toEqual([delivery.id]);
    const after = await t.http.get(path, { token: workspace.owner.token });
    expect(after.body).toMatchObject({ state: 'succeeded', attemptCount: 2 });
    expect(after.body.attempts).toHaveLength(2);
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/webhooks/${endpoint.id}/deliveries/${newId()}/replay`,
          undefined,
          { token: workspace.owner.token },
        )
      ).status,
    ).toBe(404);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace)).body;
    const rotated = await t.http.post(
      `/workspaces/${workspace.id}/webhooks/${endpoint.id}/rotate-secret`,
      undefined,
      { token: workspace.owner.token },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const expires =
      Date.parse(present(rotated.body.previousSecretExpiresAt, 'previousSecretExpiresAt')) -
      Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(expires).toBeLessThanOrEqual(24 * 3600 * 1000);
    await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Rotated' },
      { token: workspace.owner.token },
    );
    const before = receiver.received.length;
    await drain();
    const [request] = receiver.received
      .slice(before)
      .filter((entry) => entry.body.workspaceId === workspace.id);
    if (request === undefined) throw new Error('nothing received');
    const header = String(request.headers['x-service-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [endpoint.secret, rotated.body.secret]) {
      expect(stripe.webhooks.constructEvent(request.raw, header, secret)).toBeTruthy();
    }
  });

  it('refuses to send to a private address unless allowed, at creation and at send time', async () => {
    const strict = await createTestApp();
    try {
      const workspace = await createWorkspace(strict);
      for (const url of [
        receiver.url,
        'http://localhost:9/x',
        'http://[::1]/x',
        'http://10.1.2.3/x',
      ]) {
        const response = await strict.http.post(
          `/workspaces/${workspace.id}/webhooks`,
          { url, eventTypes: ['*'] },
          { token: workspace.owner.token },
        );
        expect(response.status, url).toBe(400);
        expect(response.body.error.code).toBe('webhook_url_not_allowed');
      }
      const created = await strict.http.post(
        `/workspaces/${workspace.id}/webhooks`,
        { url: 'https://hooks.example.test/in', eventTypes: ['*'] },
        { token: workspace.owner.token },
      );
      expect(created.status).toBe(201);
      // An endpoint whose address became private later (as a DNS answer could) is refused at send time.
      await strict.db
        .updateTable('webhook_endpoints')
        .set({ url: receiver.url })
        .where('id', '=', created.body.id)
        .execute();
      await strict.http.patch(
        `/workspaces/${workspace.id}`,
        { name: 'X' },
        { token: workspace.owner.token },
      );
      const before = receiver.received.length;
      const d = new WebhookDispatcher(strict.db, strict.ctx.config, strict.ctx.log);
      expect(await d.runOnce()).toBe(1);
      await d.close();
      expect(receiver.received.length).toBe(before);
      const page = await strict.http.get(
        `/workspaces/${workspace.id}/webhooks/${created.body.id}/deliveries`,
        { token: workspace.owner.token },
      );
      expect(at(page.body.deliveries, 0).attempts[0]).toMatchObject({
        statusCode: null,
        succeeded: false,
        error: expect.stringMatching(/private address/),
      });
      // A name is resolved at connect time, and a private answer refused there.
      await strict.db
        .updateTable('webhook_endpoints')
        .set({ url: receiver.url.replace('127.0.0.1', 'localhost') })
        .where('id', '=', created.body.id)
        .execute();
      await strict.http.patch(
        `/workspaces/${workspace.id}`,
        { name: 'Y' },
        { token: workspace.owner.token },
      );
      const byName = new WebhookDispatcher(strict.db, strict.ctx.config, strict.ctx.log);
      expect(await byName.runOnce()).toBe(1);
      await byName.close();
      expect(receiver.received.length).toBe(before);
      const again = await strict.http.get(
        `/workspaces/${workspace.id}/webhooks/${created.body.id}/deliveries`,
        { token: workspace.owner.token },
      );
      expect(at(again.body.deliveries, 0).lastError).toMatch(
        /^refused: .* is a loopback or private address$/,
      );
    } finally {
      await strict.close();
    }
  });

  it('records a timeout as a failed attempt', async () => {
    const quick = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '200' });
    try {
      const workspace = await createWorkspace(quick);
      const created = await quick.http.post(
        `/workspaces/${workspace.id}/webhooks`,
        { url: receiver.url, eventTypes: ['*'] },
        { token: workspace.owner.token },
      );
      await quick.http.patch(
        `/workspaces/${workspace.id}`,
        { name: 'Slow' },
        { token: workspace.owner.token },
      );
      receiver.respond(200, 1500);
      const d = new WebhookDispatcher(quick.db, quick.ctx.config, quick.ctx.log);
      expect(await d.runOnce()).toBe(1);
      await d.close();
      const page = await quick.http.get(
        `/workspaces/${workspace.id}/webhooks/${created.body.id}/deliveries`,
        { token: workspace.owner.token },
      );
      expect(page.body.deliveries[0]).toMatchObject({
        state: 'pending',
        lastStatusCode: null,
        lastError: 'timed out after 200 ms',
      });
    } finally {
      receiver.respond(200);
      await quick.close();
    }
  });

  it('lets several dispatchers share the work without sending a delivery twice', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['item.created'] })).body;
    const list = await createCollection(t, workspace);
    await drain();
    for (let index = 0; index < 80; index++) await createItem(t, workspace, list.id);
    const before = receiver.received.length;
    const workers = [dispatcher(), dispatcher(), dispatcher()];
    await Promise.all(workers.map((worker) => drain(worker)));
    const ids = receiver.received.slice(before).map((entry) => entry.headers['x-service-delivery']);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
    const all = await deliveries(workspace, endpoint.id);
    expect(all.every((delivery) => delivery.attemptCount === 1)).toBe(true);
  });
});

describe('batch deliveries', () => {
  async function recordBatch(
    workspace: TestWorkspace,
    batchId: string,
    calls: Array<{ type: 'item.updated' | 'item.moved'; count: number }>,
  ) {
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    await inTransaction(t.db, async (trx) => {
      for (const call of calls) {
        await recordEvents(
          trx,
          {
            workspaceId: workspace.id,
            actor: { kind: 'user', label: 'Bulk' },
            sinks: t.ctx.eventSinks,
            batchId,
          },
          Array.from({ length: call.count }, (_, index) => ({
            type: call.type,
            resource: { kind: 'item' as const, id: item.id },
            changes: { title: { before: `${index}`, after: `${index + 1}` } },
          })),
        );
      }
    });
  }

  it('sends one delivery per batch and type for 300 cards, even over several calls, to be read by path', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['item.*'] })).body;
    const other = (await createEndpoint(workspace, { eventTypes: ['item.moved'] })).body;
    const batchId = newId();
    await recordBatch(workspace, batchId, [
      { type: 'item.updated', count: 200 },
      { type: 'item.moved', count: 30 },
      { type: 'item.updated', count: 100 },
    ]);
    const queued = (await deliveries(workspace, endpoint.id)).filter(
      (delivery) => delivery.batchId === batchId,
    );
    expect(
      queued.map((delivery) => [delivery.eventType, delivery.eventCount, delivery.kind]).sort(),
    ).toEqual([
      ['item.moved', 30, 'batch'],
      ['item.updated', 300, 'batch'],
    ]);
    expect(
      (await deliveries(workspace, other.id)).map((delivery) => [
        delivery.eventType,
        delivery.eventCount,
      ]),
    ).toEqual([['item.moved', 30]]);
    const before = receiver.received.length;
    await drain();
    const bodies = receiver.received.slice(before).map((entry) => entry.body);
    const updated = findBatch(bodies, { type: 'item.updated', batchId });
    expect(updated).toMatchObject({
      kind: 'batch',
      type: 'item.updated',
      batch: { batchId, count: 300, read: { batchId } },
    });
    expect(updated.events).toBeUndefined();
    const read = await t.http.get(batchReadPath(updated), { token: workspace.owner.token });
    expect(read.status).toBe(200);
    expect(read.body.events).toHaveLength(300);
    expect(read.body.events.every((event) => event.type === 'item.updated')).toBe(true);
    expect(at(read.body.events, 0).id).toBe(updated.batch.firstEventId);
    expect(at(read.body.events, -1).id).toBe(updated.batch.lastEventId);
    const moved = bodies.filter(
      (body) =>
        body.kind === 'batch' && body.type === 'item.moved' && body.batch.batchId === batchId,
    );
    // Two endpoints subscribe to item.moved: one delivery each, with the 30 events inlined.
    expect(moved).toHaveLength(2);
    for (const body of moved) {
      assert(body.kind === 'batch', 'a batch delivery');
      expect(body.events).toHaveLength(30);
      expect(body.eventIds).toEqual(body.events?.map((event) => event.id));
    }
  });

  it('sends one delivery for a 300-card bulk edit, in the transaction of the edit', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const endpoint = (await createEndpoint(workspace, { eventTypes: ['item.updated'] })).body;
    const list = await createCollection(t, workspace);
    await insertItems(t, workspace, list.id, 300);
    const statuses = (await t.http.get(`/workspaces/${workspace.id}/statuses`, { token })).body;
    const result = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/bulk-update`,
      { definition: {}, patch: { statusId: at(statuses, 1).id }, expectedCount: 300 },
      { token },
    );
    expect(result.body.changed).toBe(300);
    const queued = await deliveries(workspace, endpoint.id);
    expect(
      queued.map((delivery) => [delivery.batchId, delivery.eventType, delivery.eventCount]),
    ).toEqual([[result.body.batchId, 'item.updated', 300]]);
    const before = receiver.received.length;
    await drain();
    const bodies = receiver.received.slice(before).map((entry) => entry.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      kind: 'batch',
      type: 'item.updated',
      batch: { batchId: result.body.batchId, count: 300 },
    });
  });

  it('inlines 49 events and reads 50 by path', async () => {
    const workspace = await createWorkspace(t);
    await createEndpoint(workspace, { eventTypes: ['item.updated', 'item.moved'] });
    const small = newId();
    const large = newId();
    await recordBatch(workspace, small, [{ type: 'item.updated', count: 49 }]);
    await recordBatch(workspace, large, [{ type: 'item.moved', count: 50 }]);
    const before = receiver.received.length;
    await drain();
    const bodies = receiver.received.slice(before).map((entry) => entry.body);
    expect(findBatch(bodies, { batchId: small }).events).toHaveLength(49);
    expect(findBatch(bodies, { batchId: large }).events).toBeUndefined();
  });
});
