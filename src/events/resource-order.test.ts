import { describe, expect, it } from 'vitest';
import { useApp } from '../../test/fixtures/app.js';
import {
  allEvents,
  createCollection,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../test/helpers/factories.js';
import { withStatus } from '../../test/helpers/http.js';

/**
 * For any one resource, the log's order is the order its changes were
 * applied: concurrent writers of one card (and of one list, one status)
 * leave a log whose `before`/`after` chain is unbroken, and whose last
 * `after` is the stored value, so a consumer applying the log in order
 * ends with the right state. Meaningful on PostgreSQL, where the writers
 * wait for each other's row lock; PGlite runs them one after another.
 */
const t = useApp();

const WRITERS = 8;
const ROUNDS = 12;

/** Each resource's chain of one property, in the log's order. */
async function chains(workspace: TestWorkspace, type: string, property: string) {
  const byResource = new Map<string, Array<{ before: unknown; after: unknown }>>();
  for (const event of await allEvents(t, workspace, { type })) {
    const change = event.changes[property];
    if (change === undefined) continue;
    const chain = byResource.get(event.resource.id) ?? [];
    chain.push(change);
    byResource.set(event.resource.id, chain);
  }
  return byResource;
}

function expectUnbroken(
  chain: ReadonlyArray<{ before: unknown; after: unknown }>,
  first: unknown,
  final: unknown,
) {
  const shown = chain
    .map((change) => `[${String(change.before)}→${String(change.after)}]`)
    .join(' ');
  let current = first;
  for (const change of chain) {
    expect(change.before, shown).toBe(current);
    current = change.after;
  }
  expect(current, shown).toBe(final);
}

/** `WRITERS` concurrent renames of each resource per round, every one answered `ok`. */
async function renameConcurrently(
  workspace: TestWorkspace,
  urls: readonly string[],
  body: (round: number, writer: number) => Record<string, unknown>,
) {
  for (let round = 0; round < ROUNDS; round++) {
    const responses = await Promise.all(
      urls.flatMap((url) =>
        Array.from({ length: WRITERS }, (_, writer) =>
          t.http.patch(url as `/workspaces/${string}`, body(round, writer), {
            token: workspace.owner.token,
          }),
        ),
      ),
    );
    for (const response of responses) expect(response.status, response.text).toBe(200);
  }
}

describe('the log orders each resource’s changes as they were applied', () => {
  it('cards, lists and statuses renamed by concurrent writers', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace, { name: 'L' });
    const cards = [
      await createItem(t, workspace, list.id, { title: 't' }),
      await createItem(t, workspace, list.id, { title: 't' }),
    ];
    const statusResponse = await t.http.post(
      `/workspaces/${workspace.id}/statuses`,
      { name: 's', color: '#000000', category: 'backlog' },
      { token: workspace.owner.token },
    );
    expect(statusResponse.status).toBe(201);
    const statusId: string = statusResponse.body.id;
    const base = `/workspaces/${workspace.id}`;
    // Cards, the list and the status are written at the same time, in one workload.
    await Promise.all([
      renameConcurrently(
        workspace,
        cards.map((card) => `${base}/items/${card.id}`),
        (round, writer) => ({ title: `t${round}.${writer}` }),
      ),
      renameConcurrently(workspace, [`${base}/collections/${list.id}`], (round, writer) => ({
        name: `L${round}.${writer}`,
      })),
      renameConcurrently(workspace, [`${base}/statuses/${statusId}`], (round, writer) => ({
        name: `s${round}.${writer}`,
      })),
    ]);

    const titles = await chains(workspace, 'item.updated', 'title');
    for (const card of cards) {
      const stored = withStatus(
        await t.http.get(`/workspaces/${workspace.id}/items/${card.id}` as const, {
          token: workspace.owner.token,
        }),
        200,
      );
      expectUnbroken(titles.get(card.id) ?? [], 't', stored.body.title);
    }
    const names = await chains(workspace, 'collection.updated', 'name');
    const storedList = withStatus(
      await t.http.get(`/workspaces/${workspace.id}/collections/${list.id}` as const, {
        token: workspace.owner.token,
      }),
      200,
    );
    expectUnbroken(names.get(list.id) ?? [], 'L', storedList.body.name);
    const statusNames = await chains(workspace, 'status.updated', 'name');
    const statuses = withStatus(
      await t.http.get(`/workspaces/${workspace.id}/statuses` as const, {
        token: workspace.owner.token,
      }),
      200,
    );
    const storedStatus = statuses.body.find((status) => status.id === statusId);
    expectUnbroken(statusNames.get(statusId) ?? [], 's', storedStatus?.name);
  });

  it('cards changed by bulk updates and single PATCHes at once', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const list = await createCollection(t, workspace);
    const cards = await Promise.all(
      Array.from({ length: 4 }, () => createItem(t, workspace, list.id)),
    );
    const statuses = withStatus(
      await t.http.get(`/workspaces/${workspace.id}/statuses` as const, { token }),
      200,
    ).body.map((status) => status.id);
    const first: unknown = cards[0]?.statusId;
    const bulk = `/workspaces/${workspace.id}/collections/${list.id}/bulk-update` as const;
    for (let round = 0; round < ROUNDS; round++) {
      // Half the writers move every card of the list at once (several row locks in one
      // statement), the other half one card each.
      const responses = await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) => {
          const statusId = statuses[(round + writer) % statuses.length];
          const card = cards[writer % cards.length];
          return writer % 2 === 0
            ? t.http.post(bulk, { definition: {}, patch: { statusId } }, { token })
            : t.http.patch(
                `/workspaces/${workspace.id}/items/${card?.id}` as const,
                { statusId },
                { token },
              );
        }),
      );
      for (const response of responses) expect(response.status, response.text).toBe(200);
    }
    const chainsByCard = await chains(workspace, 'item.updated', 'statusId');
    for (const card of cards) {
      const stored = withStatus(
        await t.http.get(`/workspaces/${workspace.id}/items/${card.id}` as const, { token }),
        200,
      );
      expectUnbroken(chainsByCard.get(card.id) ?? [], first, stored.body.statusId);
    }
  });
});
