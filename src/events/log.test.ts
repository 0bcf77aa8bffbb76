import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import { workspaceWithMembers } from '../../test/fixtures/workspace.js';
import { at, present } from '../../test/helpers/assert.js';
import { createUser, createWorkspace, type TestWorkspace } from '../../test/helpers/factories.js';
import { adminUrl } from '../../test/helpers/postgres.js';
import { inTransaction } from '../db/transaction.js';
import { readEvents } from './reader.js';
import { recordEvents } from './writer.js';

const t = useApp();

async function writeStatuses(workspace: TestWorkspace, count: number) {
  for (let index = 0; index < count; index++) {
    const response = await t.http.post(
      `/workspaces/${workspace.id}/statuses`,
      { name: `S${index}`, color: '#000000', category: 'backlog' },
      { token: workspace.owner.token },
    );
    expect(response.status).toBe(201);
  }
}

describe('GET /workspaces/{id}/events', () => {
  it('pages oldest first with since and nextCursor, and newest first with before', async () => {
    const workspace = await createWorkspace(t);
    await writeStatuses(workspace, 4);
    const url = `/workspaces/${workspace.id}/events` as const;
    const token = workspace.owner.token;
    const all = (await t.http.get(url, { token })).body;
    expect(all.events).toHaveLength(7);
    expect(all.hasMore).toBe(false);
    const ids = all.events.map((event) => event.id);
    expect([...ids].sort()).toEqual(ids);

    const first = (await t.api.get(url, { token, query: { limit: '3' } })).body;
    expect(first.events.map((event) => event.id)).toEqual(ids.slice(0, 3));
    expect(first).toMatchObject({ hasMore: true, nextCursor: ids[2] });
    const second = (
      await t.http.get(url, { token, query: { limit: '3', since: present(first.nextCursor) } })
    ).body;
    expect(second.events.map((event) => event.id)).toEqual(ids.slice(3, 6));
    const caughtUp = (await t.http.get(url, { token, query: { since: at(ids, 6) } })).body;
    expect(caughtUp).toEqual({ events: [], nextCursor: ids[6], hasMore: false });

    const newest = (await t.http.get(url, { token, query: { order: 'desc', limit: '2' } })).body;
    expect(newest.events.map((event) => event.id)).toEqual([ids[6], ids[5]]);
    const older = (
      await t.http.get(url, {
        token,
        query: { order: 'desc', limit: '2', before: present(newest.nextCursor) },
      })
    ).body;
    expect(older.events.map((event) => event.id)).toEqual([ids[4], ids[3]]);
  });

  it('filters by repeated type, by batch and by cause', async () => {
    const workspace = await createWorkspace(t);
    await writeStatuses(workspace, 1);
    await t.http.patch(
      `/workspaces/${workspace.id}`,
      { name: 'Renamed' },
      { token: workspace.owner.token },
    );
    const url = `/workspaces/${workspace.id}/events` as const;
    const token = workspace.owner.token;
    const types = (
      await t.http.get(url, { token, query: { type: ['workspace.updated', 'status.created'] } })
    ).body;
    expect(types.events).toHaveLength(5);
    const one = (await t.http.get(url, { token, query: { type: 'workspace.updated' } })).body;
    expect(one.events.map((event) => event.type)).toEqual(['workspace.updated']);
    expect((await t.http.get(url, { token, query: { cause: 'import' } })).body.events).toEqual([]);
    expect((await t.http.get(url, { token, query: { cause: 'edit' } })).body.events).toHaveLength(
      5,
    );

    const batchId = '0190d6e2-3c4b-7def-8123-456789abcdef';
    await inTransaction(t.db, (trx) =>
      recordEvents(
        trx,
        {
          workspaceId: workspace.id,
          actor: { kind: 'user', label: 'Script' },
          sinks: t.ctx.eventSinks,
          batchId,
          cause: 'import',
        },
        [
          {
            type: 'status.updated',
            resource: { kind: 'status', id: batchId },
            changes: { name: { before: 'a', after: 'b' } },
          },
          {
            type: 'status.updated',
            resource: { kind: 'status', id: batchId },
            changes: { name: { before: 'b', after: 'c' } },
          },
        ],
      ),
    );
    const batch = (await t.http.get(url, { token, query: { batchId } })).body;
    expect(batch.events).toHaveLength(2);
    expect(
      batch.events.every((event) => event.batchId === batchId && event.cause === 'import'),
    ).toBe(true);
    expect((await t.http.get(url, { token, query: { cause: 'edit' } })).body.events).toHaveLength(
      5,
    );
  });

  it('refuses bad parameters with 400', async () => {
    const workspace = await createWorkspace(t);
    const url = `/workspaces/${workspace.id}/events` as const;
    const token = workspace.owner.token;
    const cases: Array<Record<string, string>> = [
      { limit: '0' },
      { limit: '1001' },
      { type: 'item.exploded' },
      { since: 'x' },
      { order: 'up' },
      { cause: 'magic' },
      { page: '2' },
      { since: '0190d6e2-3c4b-7def-8123-456789abcdef' },
      { before: '0190d6e2-3c4b-7def-8123-456789abcdef' },
    ];
    for (const query of cases) {
      const response = await t.http.get(url, { token, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
    }
  });

  it('is readable by members only; other workspaces answer 404', async () => {
    const { workspace, viewer } = await workspaceWithMembers(t, ['viewer']);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/events`, { token: viewer.token })).status,
    ).toBe(200);
    const outsider = await createUser(t);
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/events`, { token: outsider.token })).status,
    ).toBe(404);
    expect((await t.http.get(`/workspaces/${workspace.id}/events`)).status).toBe(401);
  });

  it('cannot be rewritten', async () => {
    const workspace = await createWorkspace(t);
    await expect(
      t.db
        .updateTable('events')
        .set({ type: 'item.created' })
        .where('workspace_id', '=', workspace.id)
        .execute(),
    ).rejects.toThrow(/immutable/);
  });
});

describe.runIf(inject('testDatabase').kind === 'postgres')('the horizon', () => {
  const statusEvent = (workspace: TestWorkspace) => ({
    type: 'workspace.updated' as const,
    resource: { kind: 'workspace' as const, id: workspace.id },
    changes: { name: { before: 'a', after: 'b' } },
  });
  const write = (workspace: TestWorkspace) =>
    inTransaction(t.db, (trx) =>
      recordEvents(
        trx,
        {
          workspaceId: workspace.id,
          actor: { kind: 'user', label: 'Writer' },
          sinks: t.ctx.eventSinks,
        },
        [statusEvent(workspace)],
      ),
    );
  const ids = async (workspace: TestWorkspace) =>
    (await readEvents(t.db, workspace.id, { type: ['workspace.updated'] }, 0)).events.map(
      (event) => event.id,
    );

  it('an older transaction of this database holds later events back until it ends', async () => {
    const workspace = await createWorkspace(t);
    let held: string[] = [];
    let written = '';
    await t.db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx);
      written = (await write(workspace))[0]?.id ?? '';
      held = await ids(workspace);
    });
    expect(written).not.toBe('');
    expect(held).toEqual([]);
    expect(await ids(workspace)).toEqual([written]);
  });

  it('a transaction open in another database of the server does not hold the log back', async () => {
    const workspace = await createWorkspace(t);
    const target = inject('testDatabase');
    if (target.kind !== 'postgres') throw new Error('PostgreSQL only');
    const other = new pg.Client({ connectionString: adminUrl(target.serverUrl) });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_current_xact_id()');
      const [record] = await write(workspace);
      // Waiting for the horizon (other test files' short transactions may pass it for
      // a moment), never for the transaction held open here: it stays open throughout.
      const seen = await readEvents(t.db, workspace.id, { type: ['workspace.updated'] }, 5000);
      expect(seen.events.map((event) => event.id)).toEqual([record?.id]);
    } finally {
      await other.query('rollback');
      await other.end();
    }
  });
});

describe('ordering under concurrent writers', () => {
  /**
   * Writers take no lock: each transaction holds its events open a random
   * while before committing, so commits land out of the order the events
   * were written in. On PostgreSQL (real concurrency) 8 writers write at
   * least 50,000 events; PGlite runs one transaction at a time, so a
   * smaller run there checks the same rules.
   */
  const writers = 8;
  const target = inject('testDatabase').kind === 'postgres' ? 50_000 : 2_000;

  it(`a reader polling with since sees every committed event exactly once (${target} events, ${writers} writers)`, async () => {
    const workspace = await createWorkspace(t);
    const written: string[] = [];
    let writing = true;
    let remaining = target;

    async function writer(index: number) {
      for (let round = 0; remaining > 0; round++) {
        const count = Math.min(remaining, 1 + ((round * 7 + index) % 20));
        remaining -= count;
        const ids = await inTransaction(t.db, async (trx) => {
          const records = await recordEvents(
            trx,
            {
              workspaceId: workspace.id,
              actor: { kind: 'user', label: `writer ${index}` },
              sinks: t.ctx.eventSinks,
            },
            Array.from({ length: count }, () => ({
              type: 'workspace.updated' as const,
              resource: { kind: 'workspace' as const, id: workspace.id },
              changes: { name: { before: index, after: round } },
            })),
          );
          // Hold the transaction open after writing, so commits land out of start order.
          if (round % 3 === 0) await sleep(Math.floor(Math.random() * 3));
          return records.map((record) => record.id);
        });
        written.push(...ids);
      }
    }

    const seen: string[] = [];
    let polls = 0;
    async function reader() {
      let cursor: string | undefined;
      const poll = async () => {
        polls += 1;
        const page = await readEvents(t.db, workspace.id, {
          since: cursor,
          limit: 1000,
          type: ['workspace.updated'],
        });
        seen.push(...page.events.map((event) => event.id));
        cursor = page.nextCursor ?? cursor;
        return page.hasMore;
      };
      while (writing) {
        await poll();
        await sleep(1);
      }
      while (await poll()) {}
    }

    const reading = reader();
    await Promise.all(Array.from({ length: writers }, (_, index) => writer(index)));
    const seenWhileWriting = seen.length;
    writing = false;
    await reading;

    expect(written).toHaveLength(target);
    // The reader paged while the writers wrote, not only once they were done.
    expect(polls).toBeGreaterThan(2);
    expect(seenWhileWriting).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(target);
    expect([...seen].sort()).toEqual([...written].sort());
    // Paging the whole log afterwards gives the same order the poller saw.
    const replay: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await readEvents(t.db, workspace.id, { since: cursor, limit: 1000 });
      replay.push(
        ...page.events
          .filter((event) => event.type === 'workspace.updated')
          .map((event) => event.id),
      );
      if (!page.hasMore) break;
      cursor = page.nextCursor ?? undefined;
    }
    expect(replay).toEqual(seen);
  });
});
