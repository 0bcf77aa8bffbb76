import { describe, expect, it } from 'vitest';
import { useApp } from '../../../../test/fixtures/app.js';
import {
  createCollection,
  createItem,
  createWorkspace,
} from '../../../../test/helpers/factories.js';

/**
 * Card creation takes no lock on its list or its workspace (numbers come
 * from a sequence, order keys are spread): concurrent writers of one list
 * still get distinct numbers, distinct keys in the places they asked for,
 * and one `item.created` each. Meaningful on PostgreSQL, where requests run
 * at the same time; PGlite runs them one after another.
 */
const t = useApp();

const ROUNDS = 5;
const WRITERS = 24;

describe('concurrent card writes into one list', () => {
  it('append: distinct numbers and keys, all after the cards already there, each logged once', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const token = workspace.owner.token;
    const first = await createItem(t, workspace, list.id, { title: 'First' });
    const created: Array<{ id: string; number: number; sortKey: string }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const responses = await Promise.all(
        Array.from({ length: WRITERS }, (_, index) =>
          t.http.post(
            `/workspaces/${workspace.id}/collections/${list.id}/items`,
            { title: `Card ${round}.${index}` },
            { token },
          ),
        ),
      );
      for (const response of responses) {
        expect(response.status).toBe(201);
        if (response.status === 201) created.push(response.body);
      }
    }
    expect(new Set(created.map((card) => card.number)).size).toBe(created.length);
    expect(new Set(created.map((card) => card.sortKey)).size).toBe(created.length);
    expect(created.every((card) => card.sortKey > first.sortKey)).toBe(true);
    const logged = await t.db
      .selectFrom('events')
      .select('resource_id')
      .where('workspace_id', '=', workspace.id)
      .where('type', '=', 'item.created')
      .execute();
    expect(logged).toHaveLength(created.length + 1);
  });

  it('after one card: every copy lands between it and the card that followed it', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const token = workspace.owner.token;
    const anchor = await createItem(t, workspace, list.id, { title: 'Anchor' });
    const next = await createItem(t, workspace, list.id, { title: 'Next' });
    const keys: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const responses = await Promise.all(
        Array.from({ length: WRITERS }, (_, index) =>
          t.http.post(
            `/workspaces/${workspace.id}/collections/${list.id}/items`,
            { title: `After ${round}.${index}`, afterItemId: anchor.id },
            { token },
          ),
        ),
      );
      for (const response of responses) {
        expect(response.status).toBe(201);
        if (response.status === 201) keys.push(response.body.sortKey);
      }
    }
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((key) => key > anchor.sortKey && key < next.sortKey)).toBe(true);
  });
});
