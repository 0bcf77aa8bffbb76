import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import {
  createCollection,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

/**
 * Writes that change nothing log nothing: a card's body compares as a
 * document (key order and stored representation aside), so a periodic
 * re-sync does not re-log and re-deliver every card.
 */
const t = useApp();

async function eventCount(workspace: TestWorkspace): Promise<number> {
  return (
    await t.db.selectFrom('events').select('id').where('workspace_id', '=', workspace.id).execute()
  ).length;
}

/**
 * A document whose objects list their keys in the reverse of the usual
 * order, with what normalisation drops (indent 0, a mark named twice).
 */
const document = {
  blocks: [
    {
      content: [
        { marks: ['bold', 'bold'], text: 'Hello', type: 'text' },
        { text: ' world', type: 'text' },
      ],
      type: 'heading1',
    },
    { content: [{ text: 'A list', type: 'text' }], type: 'bulleted_list' },
    { content: [{ text: 'A list item', type: 'text' }], indent: 1, type: 'bulleted_list' },
    { content: [{ text: 'Plain', type: 'text' }], indent: 0, type: 'paragraph' },
  ],
};

describe('writes that change nothing', () => {
  it('a PATCH with the blocks the card has, keys in any order, or its own Markdown, logs nothing', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const card = await createItem(t, workspace, list.id, { blocks: document });
    const url = `/workspaces/${workspace.id}/items/${card.id}` as const;
    const token = workspace.owner.token;
    const stored = await t.http.get(url, { token });
    expect(stored.status).toBe(200);
    const before = await eventCount(workspace);

    const sameBlocks = await t.http.patch(url, { blocks: document }, { token });
    expect(sameBlocks.status).toBe(200);
    expect(sameBlocks.body.updatedAt).toBe(stored.body.updatedAt);
    const sameMarkdown = await t.http.patch(url, { body: stored.body.body }, { token });
    expect(sameMarkdown.status).toBe(200);
    expect(sameMarkdown.body.updatedAt).toBe(stored.body.updatedAt);
    expect(await eventCount(workspace)).toBe(before);

    // A real change still writes and logs.
    const changed = await t.http.patch(url, { body: `${stored.body.body}\n\nMore.` }, { token });
    expect(changed.status).toBe(200);
    expect(await eventCount(workspace)).toBe(before + 1);
  });

  it('a re-import of cards with bodies counts them unchanged and logs nothing', async () => {
    const workspace = await createWorkspace(t);
    const token = workspace.owner.token;
    const batch = {
      collections: [{ externalSource: 'sync', externalId: 'l', name: 'Synced', keyPrefix: 'SY' }],
      items: [
        {
          externalSource: 'sync',
          externalId: 'with-blocks',
          title: 'Blocks',
          collection: { externalId: 'l' },
          blocks: document,
        },
        {
          externalSource: 'sync',
          externalId: 'with-markdown',
          title: 'Markdown',
          collection: { externalId: 'l' },
          body: '# Title\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n  - two',
        },
      ],
    };
    const first = await t.http.post(`/workspaces/${workspace.id}/import`, batch, { token });
    expect(first.status).toBe(200);
    expect(first.body.items).toMatchObject({ created: 2 });
    const before = await eventCount(workspace);
    const again = await t.http.post(`/workspaces/${workspace.id}/import`, batch, { token });
    expect(again.status).toBe(200);
    expect(again.body.items).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(again.body.collections).toMatchObject({ unchanged: 1 });
    expect(await eventCount(workspace)).toBe(before);
  });
});
