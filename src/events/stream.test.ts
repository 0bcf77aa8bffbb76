import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../test/fixtures/workspace.js';
import {
  allEvents,
  createCollection,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../test/helpers/factories.js';
import { TEST_SECRETS_KEY } from '../../test/helpers/platform.js';
import { serve } from '../../test/helpers/sparrow-process.js';
import { eventsOf, opened, openSse, type SseStream } from '../../test/helpers/sse.js';
import { until } from '../../test/helpers/wait.js';
import { buildApp } from '../app.js';
import { modules } from '../modules.js';

const t = useApp();
let base = '';
/** A second app on the same database, as a second server process; it allows one stream per caller. */
let other: FastifyInstance;
let otherBase = '';

function address(app: FastifyInstance): string {
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address(t.app);
  const built = await buildApp({
    config: { ...t.ctx.config, logFollowersPerCaller: 1 },
    db: t.db,
    dbKind: t.dbKind,
    modules,
    notifications: t.notifications,
  });
  other = built.app;
  await other.listen({ port: 0, host: '127.0.0.1' });
  otherBase = address(other);
});
afterAll(async () => {
  await other.close();
});

function streamUrl(workspace: TestWorkspace, query = '', root = base): string {
  return `${root}/workspaces/${workspace.id}/events/stream${query}`;
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Runs `body` with keep-alives every 50 ms (each checks the caller's access again). */
async function withShortKeepAlive(body: () => Promise<void>): Promise<void> {
  t.ctx.eventFeeds.keepAliveMs = 50;
  try {
    await body();
  } finally {
    t.ctx.eventFeeds.keepAliveMs = 15_000;
  }
}

/** A stream opened with this token, once it has had a keep-alive (its access checked once). */
async function keptAlive(workspace: TestWorkspace, token: string): Promise<SseStream> {
  const stream = opened(await openSse(streamUrl(workspace), bearer(token)));
  await until(() => stream.comments.includes('keep-alive'), 'a keep-alive');
  return stream;
}

async function open(
  workspace: TestWorkspace,
  query = '',
  headers: Record<string, string> = {},
  root = base,
): Promise<SseStream> {
  return opened(
    await openSse(streamUrl(workspace, query, root), {
      ...bearer(workspace.owner.token),
      ...headers,
    }),
  );
}

function readyOf(stream: SseStream) {
  return stream.messages.filter((message) => message.event === 'ready');
}

async function untilReady(stream: SseStream): Promise<void> {
  await until(() => readyOf(stream).length > 0, 'the stream to be ready');
}

async function rename(workspace: TestWorkspace, name: string): Promise<void> {
  const response = await t.http.patch(
    `/workspaces/${workspace.id}`,
    { name },
    { token: workspace.owner.token },
  );
  expect(response.status).toBe(200);
}

describe('GET /workspaces/{id}/events/stream', () => {
  it('replays after a cursor from the log, then sends live events, as the log writes them', async () => {
    const workspace = await createWorkspace(t);
    const before = await allEvents(t, workspace);
    expect(before.length).toBeGreaterThan(1);
    const first = before[0]?.id ?? '';
    const stream = await open(workspace, `?since=${first}`);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await untilReady(stream);
    expect(stream.retry).toBe(2000);
    expect(eventsOf(stream)).toEqual(before.slice(1));
    expect(stream.messages.at(-1)).toMatchObject({
      event: 'ready',
      data: JSON.stringify({ cursor: before.at(-1)?.id }),
    });

    await rename(workspace, 'Live');
    await until(() => eventsOf(stream).length === before.length, 'the live event');
    const after = await allEvents(t, workspace);
    expect(eventsOf(stream)).toEqual(after.slice(1));
    expect(stream.lastEventId).toBe(after.at(-1)?.id);
    expect(
      stream.messages.filter((message) => message.event === 'message').map((m) => m.id),
    ).toEqual(after.slice(1).map((event) => event.id));
    stream.close();
    await until(() => t.ctx.eventFeeds.readers === 0, 'the shared reader to stop');
  });

  it('starts at the end of the log without a cursor, and applies the log’s filters', async () => {
    const workspace = await createWorkspace(t);
    const before = await allEvents(t, workspace);
    const all = await open(workspace);
    const filtered = await open(workspace, '?type=collection.created&cause=edit');
    await Promise.all([untilReady(all), untilReady(filtered)]);
    expect(eventsOf(all)).toEqual([]);
    // The ready event names the end of the log, so a reconnect resumes from there.
    expect(all.lastEventId).toBe(before.at(-1)?.id);
    expect(filtered.lastEventId).toBe(before.at(-1)?.id);
    expect(t.ctx.eventFeeds.readers).toBe(1);
    expect(t.ctx.eventFeeds.followers(workspace.id)).toBe(2);

    await rename(workspace, 'Filtered');
    const collection = await createCollection(t, workspace);
    await until(() => eventsOf(all).length === 2, 'both events');
    await until(() => eventsOf(filtered).length === 1, 'the collection event');
    expect(eventsOf(all).map((event) => event.type)).toEqual([
      'workspace.updated',
      'collection.created',
    ]);
    expect(eventsOf(filtered)).toEqual(
      await allEvents(t, workspace, { type: 'collection.created' }),
    );
    expect(eventsOf(filtered)[0]).toMatchObject({ resource: { id: collection.id } });
    all.close();
    filtered.close();
  });

  it('resumes after Last-Event-ID when the client reconnects, without a gap or a repeat', async () => {
    const workspace = await createWorkspace(t);
    const first = await open(workspace);
    await untilReady(first);
    await rename(workspace, 'One');
    await until(() => eventsOf(first).length === 1, 'the first event');
    first.close();
    await first.ended;
    await rename(workspace, 'Two');
    await rename(workspace, 'Three');
    // `since` of the first connection stays in the URL; the header wins, as EventSource sends it.
    const stale = (await allEvents(t, workspace))[0]?.id ?? '';
    const second = await open(workspace, `?since=${stale}`, { 'last-event-id': first.lastEventId });
    await untilReady(second);
    const seen = [...eventsOf(first), ...eventsOf(second)].map((event) => event.id);
    const log = (await allEvents(t, workspace)).map((event) => event.id);
    expect(seen).toEqual(log.slice(-3));
    second.close();
  });

  it('sends every event once, in the log’s order, while writers commit concurrently', async () => {
    const workspace = await createWorkspace(t);
    const collection = await createCollection(t, workspace);
    const writers = 5;
    const each = 20;
    for (let round = 0; round < 3; round++) {
      const start = (await allEvents(t, workspace)).at(-1)?.id ?? '';
      // The stream opens while the writers write: its replay and its live events meet mid-way.
      const writing = Promise.all(
        Array.from({ length: writers }, async (_writer, writer) => {
          for (let index = 0; index < each; index++)
            await createItem(t, workspace, collection.id, {
              title: `r${round} w${writer} #${index}`,
            });
        }),
      );
      const stream = await open(workspace, `?since=${start}`);
      await writing;
      await until(() => eventsOf(stream).length >= writers * each, 'every event', 20_000);
      const log = (await allEvents(t, workspace, { since: start })).map((event) => event.id);
      expect(log).toHaveLength(writers * each);
      expect(eventsOf(stream).map((event) => event.id)).toEqual(log);
      stream.close();
    }
  });

  it('shows a change made through another server process, live', async () => {
    const workspace = await createWorkspace(t);
    const stream = await open(workspace, '', {}, otherBase);
    await untilReady(stream);
    // How fast is measured by a benchmark, not here: a test waits for the condition.
    await rename(workspace, 'Elsewhere');
    await until(() => eventsOf(stream).length === 1, 'the event on the other server', 30_000);
    expect(eventsOf(stream)[0]).toMatchObject({ type: 'workspace.updated' });
    // That server allows one stream per caller: a second is refused before it opens.
    const refused = await openSse(
      streamUrl(workspace, '', otherBase),
      bearer(workspace.owner.token),
    );
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'too_many_followers' } } });
    stream.close();
  });

  it('ends its streams when the app closes, and frees the readers', async () => {
    const closing = await buildApp({
      config: t.ctx.config,
      db: t.db,
      dbKind: t.dbKind,
      modules,
      notifications: t.notifications,
    });
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const workspace = await createWorkspace(t);
    const stream = await open(workspace, '', {}, address(closing.app));
    await untilReady(stream);
    expect(closing.ctx.eventFeeds.readers).toBe(1);
    await closing.app.close();
    await stream.ended;
    expect(closing.ctx.eventFeeds.readers).toBe(0);
  });

  it('ends a stream at its next keep-alive once the caller lost access', async () => {
    const { workspace, member } = await workspaceWithMembers(t, ['member']);
    await withShortKeepAlive(async () => {
      const stream = await keptAlive(workspace, member.token);
      const removed = await t.http.delete(`/workspaces/${workspace.id}/members/${member.user.id}`, {
        token: workspace.owner.token,
      });
      expect(removed.status).toBe(204);
      await stream.ended;
      const again = await openSse(streamUrl(workspace), bearer(member.token));
      expect(again).toMatchObject({ status: 404 });
    });
  });
});

describe('a stream whose credential ends', () => {
  it('ends at its next keep-alive once the session signed out or the key was revoked', async () => {
    const { workspace, member } = await workspaceWithMembers(t, ['member']);
    await withShortKeepAlive(async () => {
      const session = await keptAlive(workspace, member.token);
      const out = await t.http.post('/auth/logout', undefined, { token: member.token });
      expect(out.status).toBe(204);
      await session.ended;

      const key = await t.http.post(
        `/workspaces/${workspace.id}/api-keys`,
        { name: 'Reader', role: 'viewer' },
        { token: workspace.owner.token },
      );
      expect(key.status).toBe(201);
      const keyed = await keptAlive(workspace, key.body.token);
      const revoked = await t.http.delete(`/workspaces/${workspace.id}/api-keys/${key.body.id}`, {
        token: workspace.owner.token,
      });
      expect(revoked.status).toBe(204);
      await keyed.ended;
      expect(await openSse(streamUrl(workspace), bearer(key.body.token))).toMatchObject({
        status: 401,
      });
    });
  });
});

describe.runIf(inject('testDatabase').kind === 'postgres')('a `sparrow serve` process', () => {
  it('streams a change made through another process on the same database, live', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-stream-'));
    const server = await serve({
      DATABASE_URL: t.ctx.config.databaseUrl ?? '',
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
    });
    try {
      const workspace = await createWorkspace(t);
      const stream = await open(workspace, '', {}, server.url);
      await untilReady(stream);
      await rename(workspace, 'From this process');
      await until(() => eventsOf(stream).length === 1, 'the event on the other process', 30_000);
      expect(eventsOf(stream)).toEqual((await allEvents(t, workspace)).slice(-1));
      stream.close();
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('who may follow the log', () => {
  it('refuses without a credential, an outsider, a bad cursor and an app without events:read', async () => {
    const { workspace, viewer, outsider } = await workspaceWithMembers(t, ['viewer', 'outsider']);
    expect(await openSse(streamUrl(workspace))).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthenticated' } },
    });
    expect(await openSse(streamUrl(workspace), bearer(outsider.token))).toMatchObject({
      status: 404,
    });
    const unknown = '00000000-0000-7000-8000-000000000000';
    expect(
      await openSse(streamUrl(workspace, `?since=${unknown}`), bearer(viewer.token)),
    ).toMatchObject({ status: 400, body: { error: { code: 'invalid_cursor' } } });
    expect(
      await openSse(streamUrl(workspace), { ...bearer(viewer.token), 'last-event-id': 'nope' }),
    ).toMatchObject({ status: 400, body: { error: { code: 'validation_failed' } } });

    const viewing = opened(await openSse(streamUrl(workspace), bearer(viewer.token)));
    await untilReady(viewing);
    viewing.close();

    const key = await t.http.post(
      `/workspaces/${workspace.id}/api-keys`,
      { name: 'Reader', role: 'viewer' },
      { token: workspace.owner.token },
    );
    expect(key.status).toBe(201);
    const keyed = opened(await openSse(streamUrl(workspace), bearer(key.body.token)));
    await untilReady(keyed);
    keyed.close();

    const scoped = await appToken(workspace, ['items:read']);
    expect(await openSse(streamUrl(workspace), bearer(scoped))).toMatchObject({
      status: 403,
      body: { error: { code: 'missing_scope' } },
    });
    const reader = await appToken(workspace, ['events:read']);
    const allowed = opened(await openSse(streamUrl(workspace), bearer(reader)));
    await untilReady(allowed);
    allowed.close();
  });
});

/** An installed app's token with these scopes. */
async function appToken(workspace: TestWorkspace, scopes: string[]): Promise<string> {
  const { createHash, randomBytes } = await import('node:crypto');
  const redirectUri = 'https://app.example.test/callback';
  const registered = await t.http.post(
    '/apps',
    { name: 'Stream Bot', redirectUris: [redirectUri], scopes },
    { token: workspace.owner.token },
  );
  expect(registered.status).toBe(201);
  const verifier = randomBytes(32).toString('base64url');
  const consent = await t.http.post(
    '/oauth/authorize',
    {
      clientId: registered.body.clientId,
      redirectUri,
      workspaceId: workspace.id,
      scopes,
      state: 'x',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
    },
    { token: workspace.owner.token },
  );
  expect(consent.status).toBe(200);
  const token = await t.http.post('/oauth/token', {
    code: consent.body.code,
    clientSecret: registered.body.clientSecret,
    redirectUri,
    codeVerifier: verifier,
  });
  expect(token.status).toBe(200);
  return token.body.access_token;
}
