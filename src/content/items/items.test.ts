import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { at, present } from '../../../test/helpers/assert.js';
import {
  addMember,
  allEvents,
  createCollection,
  createField,
  createItem,
  createUser,
  createWorkspace,
  selectOptions,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';

const t = useApp();

async function uploadText(workspace: TestWorkspace): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/workspaces/${workspace.id}/files`,
    headers: {
      authorization: `Bearer ${workspace.owner.token}`,
      'content-type': 'multipart/form-data; boundary=B',
    },
    payload:
      '--B\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\n\r\nnotes\r\n--B--\r\n',
  });
  return response.json().id;
}

async function registry(workspace: TestWorkspace) {
  const field = (body: Record<string, unknown>) => createField(t, workspace, body);
  const select = await field({
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: { options: [{ label: 'A', color: '#000000' }] },
  });
  return {
    text: await field({ key: 'notes', type: 'text', name: 'Notes' }),
    number: await field({ key: 'points', type: 'number', name: 'Points' }),
    select,
    free: await field({ key: 'free', type: 'select', name: 'Free' }),
    multi: await field({
      key: 'tags',
      type: 'multi_select',
      name: 'Tags',
      config: selectOptions('x', 'y'),
    }),
    person: await field({ key: 'owner', type: 'person', name: 'Owner' }),
    people: await field({ key: 'watchers', type: 'multi_person', name: 'Watchers' }),
    date: await field({ key: 'due', type: 'date', name: 'Due' }),
    checkbox: await field({ key: 'done', type: 'checkbox', name: 'Done' }),
    url: await field({ key: 'link', type: 'url', name: 'Link' }),
    email: await field({ key: 'contact', type: 'email', name: 'Contact' }),
    file: await field({ key: 'spec', type: 'file', name: 'Spec' }),
  };
}

describe('creating items', () => {
  it('creates a card with a key, the next number, the first status and every property type', async () => {
    const workspace = await createWorkspace(t);
    const fields = await registry(workspace);
    const list = await createCollection(t, workspace, { keyPrefix: 'ENG' });
    const fileId = await uploadText(workspace);
    const member = await addMember(t, workspace, 'member');
    const properties = {
      notes: 'hello',
      points: 3.5,
      stage: fields.select.config.options?.[0]?.id,
      free: 'anything',
      tags: [fields.multi.config.options?.[0]?.id, fields.multi.config.options?.[0]?.id],
      owner: member.user.id,
      watchers: [member.user.id, workspace.owner.user.id],
      due: '2026-12-01',
      done: true,
      link: 'mailto:team@example.com',
      contact: 'team@example.com',
      spec: fileId,
    };
    const item = await createItem(
      t,
      workspace,
      list.id,
      { title: '  Ship it ', properties, body: '# Goal\n\nDo **it**' },
      member.token,
    );
    const statuses = (
      await t.http.get(`/workspaces/${workspace.id}/statuses`, { token: member.token })
    ).body;
    expect(item).toMatchObject({
      key: 'ENG-1',
      number: 1,
      title: 'Ship it',
      collectionId: list.id,
      collectionIds: [],
      statusId: at(statuses, 0).id,
      parentId: null,
      archived: false,
      archivedAt: null,
      createdBy: member.user.id,
      body: '# Goal\n\nDo **it**',
      properties: { ...properties, tags: [fields.multi.config.options?.[0]?.id] },
    });
    expect(item.blocks.blocks.map((block: { type: string }) => block.type)).toEqual([
      'heading1',
      'paragraph',
    ]);
    const second = await createItem(t, workspace, list.id);
    expect(second.key).toBe('ENG-2');
    const fetched = await t.api.get(`/workspaces/${workspace.id}/items/${item.id}`, {
      token: member.token,
    });
    expect(fetched.body).toEqual(item);
    const [event] = await allEvents(t, workspace, { type: 'item.created' });
    expect(event?.changes).toMatchObject({
      title: { before: null, after: 'Ship it' },
      number: { before: null, after: 1 },
      'properties.points': { before: null, after: 3.5 },
    });
    expect(event?.actor).toEqual({ kind: 'user', label: member.user.name, userId: member.user.id });
  });

  it('refuses every invalid property with 400 and writes nothing', async () => {
    const workspace = await createWorkspace(t);
    const fields = await registry(workspace);
    const list = await createCollection(t, workspace);
    const outsider = await createUser(t);
    const otherWorkspace = await createWorkspace(t);
    const foreignFile = await uploadText(otherWorkspace);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ nope: 1 }, 'unknown_property'],
      [{ [fields.text.id]: 'by id' }, 'unknown_property'],
      [{ notes: 5 }, 'invalid_property_value'],
      [{ points: '5' }, 'invalid_property_value'],
      [{ stage: 'undeclared' }, 'option_not_declared'],
      [{ tags: ['x-not-an-id'] }, 'option_not_declared'],
      [{ tags: 'x' }, 'invalid_property_value'],
      [{ owner: outsider.user.id }, 'not_a_member'],
      [{ watchers: [workspace.owner.user.id, outsider.user.id] }, 'not_a_member'],
      [{ owner: 'someone' }, 'invalid_property_value'],
      [{ due: '2026-02-30' }, 'invalid_property_value'],
      [{ done: 'yes' }, 'invalid_property_value'],
      [{ link: 'ftp://example.com/file' }, 'invalid_url'],
      [{ link: '/relative/path' }, 'invalid_url'],
      [{ contact: 'not an email' }, 'invalid_email'],
      [{ spec: foreignFile }, 'unknown_file'],
    ];
    for (const [properties, code] of cases) {
      const response = await t.http.post(
        `/workspaces/${workspace.id}/collections/${list.id}/items`,
        { title: 'x', properties },
        { token: workspace.owner.token },
      );
      expect(response.status, JSON.stringify(properties)).toBe(400);
      expect(response.body.error.code, JSON.stringify(properties)).toBe(code);
    }
    const blocks = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/items`,
      { title: 'x', blocks: { blocks: [{ type: 'marquee' }] } },
      { token: workspace.owner.token },
    );
    expect(blocks.body.error.code).toBe('unknown_block_type');
    const both = await t.http.post(
      `/workspaces/${workspace.id}/collections/${list.id}/items`,
      { title: 'x', blocks: { blocks: [] }, body: 'x' },
      { token: workspace.owner.token },
    );
    expect(both.body.error.code).toBe('blocks_and_body');
    const items = await t.db
      .selectFrom('items')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .execute();
    expect(items).toHaveLength(0);
    expect(await allEvents(t, workspace, { type: 'item.created' })).toHaveLength(0);
  });

  it('refuses a malformed block document with the code and the place of the fault', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const url = `/workspaces/${workspace.id}/collections/${list.id}/items` as const;
    const token = workspace.owner.token;
    const text = (extra: Record<string, unknown>) => ({ type: 'text', text: 'x', ...extra });
    const cases: Array<[unknown[], string, string, RegExp]> = [
      [[{ type: 'table' }], 'unknown_block_type', '/blocks/blocks/0/type', /paragraph, heading1/],
      [
        [{ type: 'divider' }, { type: 'quote', content: [text({ marks: ['bold', 'blink'] })] }],
        'unknown_mark',
        '/blocks/blocks/1/content/0/marks/1',
        /bold, italic, underline, strikethrough, code/,
      ],
      [[{ type: 'todo', indent: 7 }], 'invalid_indent', '/blocks/blocks/0/indent', /<= 6/],
      [[{ type: 'heading1', indent: 1 }], 'invalid_block', '/blocks/blocks/0/indent', /known/],
      [[{ type: 'image' }], 'invalid_block', '/blocks/blocks/0/fileId', /required/],
      [
        [{ type: 'paragraph', content: [text({ color: 'red' })] }],
        'invalid_block',
        '/blocks/blocks/0/content/0/color',
        /known/,
      ],
    ];
    for (const [blocks, code, path, message] of cases) {
      const response = await t.http.post(url, { title: 'x', blocks: { blocks } }, { token });
      expect(response.status, code).toBe(400);
      expect(response.body.error, code).toMatchObject({
        code,
        message: expect.stringMatching(message),
        details: { location: 'body', issues: [{ path }] },
      });
      expect(response.body.error.message, code).toContain(path);
    }
    const link = await t.http.post(
      url,
      {
        title: 'x',
        blocks: {
          blocks: [
            { type: 'paragraph', content: [{ type: 'link', href: 'ftp://x', content: [] }] },
          ],
        },
      },
      { token },
    );
    expect(link.body.error).toMatchObject({
      code: 'invalid_link',
      details: { path: '/blocks/blocks/0/content/0/href' },
    });
    // Markdown is held to the same limits as blocks.
    const long = await t.http.post(url, { title: 'x', body: 'y'.repeat(100_001) }, { token });
    expect(long.body.error).toMatchObject({
      code: 'invalid_block',
      details: { path: '/blocks/blocks/0/content/0/text' },
    });
    const items = await t.db
      .selectFrom('items')
      .select('id')
      .where('workspace_id', '=', workspace.id)
      .execute();
    expect(items).toHaveLength(0);
  });

  it('refuses a status, parent, list or order from another workspace', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const other = await createWorkspace(t);
    const otherList = await createCollection(t, other);
    const otherItem = await createItem(t, other, otherList.id);
    const otherStatus = at(
      (await t.http.get(`/workspaces/${other.id}/statuses`, { token: other.owner.token })).body,
      0,
    ).id;
    const post = (body: Record<string, unknown>, collectionId = list.id) =>
      t.http.post(
        `/workspaces/${workspace.id}/collections/${collectionId}/items`,
        { title: 'x', ...body },
        { token: workspace.owner.token },
      );
    expect((await post({ statusId: otherStatus })).body.error.code).toBe('invalid_status');
    expect((await post({ parentId: otherItem.id })).body.error.code).toBe('invalid_parent');
    expect((await post({ afterItemId: otherItem.id })).body.error.code).toBe('invalid_after_item');
    expect((await post({}, otherList.id)).status).toBe(404);
  });

  it('places cards in manual order with afterItemId', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const a = await createItem(t, workspace, list.id, { title: 'a' });
    const c = await createItem(t, workspace, list.id, { title: 'c' });
    const b = await createItem(t, workspace, list.id, { title: 'b', afterItemId: a.id });
    const first = await createItem(t, workspace, list.id, { title: 'first', afterItemId: null });
    const order = [first, a, b, c].map((item) => item.sortKey);
    expect([...order].sort()).toEqual(order);
  });

  it('never gives two cards one number, also concurrently and after deletion', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        t.http.post(
          `/workspaces/${workspace.id}/collections/${list.id}/items`,
          { title: `c${index}` },
          { token: workspace.owner.token },
        ),
      ),
    );
    expect(responses.every((response) => response.status === 201)).toBe(true);
    const numbers = responses.map((response) => response.body.number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const keys = new Set(responses.map((response) => response.body.sortKey));
    expect(keys.size).toBe(20);
    const last = present(responses.find((response) => response.body.number === 20)?.body);
    await t.http.delete(`/workspaces/${workspace.id}/items/${last.id}`, {
      token: workspace.owner.token,
    });
    expect((await createItem(t, workspace, list.id)).number).toBe(21);
  });
});

describe('updating items', () => {
  it('merges properties, removes with null, logs only the changes', async () => {
    const workspace = await createWorkspace(t);
    const fields = await registry(workspace);
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id, { properties: { notes: 'a', points: 1 } });
    const url = `/workspaces/${workspace.id}/items/${item.id}` as const;
    const token = workspace.owner.token;
    const patched = await t.http.patch(
      url,
      { properties: { points: 2, notes: null, done: false } },
      { token },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.properties).toEqual({ points: 2, done: false });
    const [event] = await allEvents(t, workspace, { type: 'item.updated' });
    expect(event?.changes).toEqual({
      'properties.points': { before: 1, after: 2 },
      'properties.notes': { before: 'a', after: null },
      'properties.done': { before: null, after: false },
    });
    const noop = await t.http.patch(
      url,
      { properties: { points: 2 }, title: item.title },
      { token },
    );
    expect(noop.status).toBe(200);
    expect(await allEvents(t, workspace, { type: 'item.updated' })).toHaveLength(1);
    const refused = await t.http.patch(url, { properties: { points: 'three' } }, { token });
    expect(refused.status).toBe(400);
    expect((await t.http.get(url, { token })).body.properties).toEqual({ points: 2, done: false });
    expect(fields.text.key).toBe('notes');
  });

  it('recomputes the text from blocks and the blocks from Markdown', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}` as const;
    const token = workspace.owner.token;
    const blocks = {
      blocks: [
        {
          type: 'todo',
          checked: true,
          content: [{ type: 'text', text: 'done', marks: ['italic'] }],
        },
      ],
    };
    const fromBlocks = await t.http.patch(url, { blocks }, { token });
    expect(fromBlocks.body.body).toBe('- [x] *done*');
    expect(fromBlocks.body.blocks).toEqual(blocks);
    const fromBody = await t.http.patch(url, { body: '## Title\n\n> quote' }, { token });
    expect(fromBody.body.blocks).toMatchObject({
      blocks: [{ type: 'heading2' }, { type: 'quote' }],
    });
    expect((await t.http.patch(url, { body: 'x', blocks }, { token })).status).toBe(400);
  });

  it('archives and restores, logging archivedAt', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const url = `/workspaces/${workspace.id}/items/${item.id}` as const;
    const token = workspace.owner.token;
    const archived = await t.http.patch(url, { archived: true }, { token });
    expect(archived.body).toMatchObject({ archived: true, archivedAt: expect.any(String) });
    const again = await t.http.patch(url, { archived: true }, { token });
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);
    const restored = await t.http.patch(url, { archived: false }, { token });
    expect(restored.body).toMatchObject({ archived: false, archivedAt: null });
    const events = await allEvents(t, workspace, { type: 'item.updated' });
    expect(events.map((event) => Object.keys(event.changes))).toEqual([
      ['archivedAt'],
      ['archivedAt'],
    ]);
  });

  it('checks the parent: same workspace, no cycles; order changes are item.moved', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const parent = await createItem(t, workspace, list.id, { title: 'parent' });
    const child = await createItem(t, workspace, list.id, { title: 'child', parentId: parent.id });
    const grandchild = await createItem(t, workspace, list.id, {
      title: 'grandchild',
      parentId: child.id,
    });
    const token = workspace.owner.token;
    for (const parentId of [parent.id, grandchild.id]) {
      const response = await t.http.patch(
        `/workspaces/${workspace.id}/items/${parent.id}`,
        { parentId },
        { token },
      );
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_parent');
    }
    const reparent = await t.http.patch(
      `/workspaces/${workspace.id}/items/${grandchild.id}`,
      { parentId: parent.id, afterItemId: null },
      { token },
    );
    expect(reparent.body.parentId).toBe(parent.id);
    const [moved] = await allEvents(t, workspace, { type: 'item.moved' });
    expect(Object.keys(moved?.changes ?? {}).sort()).toEqual(['parentId', 'sortKey']);
    expect(await allEvents(t, workspace, { type: 'item.updated' })).toEqual([]);
  });

  it('reads a card by its key (any case), answers 404 for a key of no card and 400 for a malformed one', async () => {
    const workspace = await createWorkspace(t);
    const other = await createWorkspace(t);
    const list = await createCollection(t, workspace, { keyPrefix: 'KEYS' });
    const next = await createCollection(t, workspace, { keyPrefix: 'NEXT' });
    await createItem(t, workspace, list.id, { title: 'first' });
    const item = await createItem(t, workspace, list.id, { title: 'second' });
    const read = (path: string, token = workspace.owner.token) =>
      t.http.get(`/workspaces/${workspace.id}/items/${path}`, { token });
    const byKey = await read(item.key);
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual((await read(item.id)).body);
    expect((await read(item.key.toLowerCase())).body.id).toBe(item.id);
    expect((await read(`NEXT-${item.number}`)).status).toBe(404);
    expect((await read('KEYS-999999')).status).toBe(404);
    for (const bad of ['KEYS-0', 'KEYS-', '-1', 'KEYS-1x', '1KEYS-1', 'KEYS-1234567890123456789']) {
      const answer = await read(bad);
      expect([bad, answer.status, answer.body.error.code]).toEqual([bad, 400, 'validation_failed']);
    }
    // Another workspace's member cannot read it by key either.
    expect((await read(item.key, other.owner.token)).status).toBe(404);
    // After a move the key takes the new prefix; the old one names no card.
    await t.http.post(
      `/workspaces/${workspace.id}/items/${item.id}/move`,
      { collectionId: next.id },
      { token: workspace.owner.token },
    );
    expect((await read(`NEXT-${item.number}`)).body.id).toBe(item.id);
    expect((await read(item.key)).status).toBe(404);
  });

  it('lets viewers read but not write', async () => {
    const workspace = await createWorkspace(t);
    const list = await createCollection(t, workspace);
    const item = await createItem(t, workspace, list.id);
    const viewer = await addMember(t, workspace, 'viewer');
    expect(
      (await t.http.get(`/workspaces/${workspace.id}/items/${item.id}`, { token: viewer.token }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.http.patch(
          `/workspaces/${workspace.id}/items/${item.id}`,
          { title: 'no' },
          { token: viewer.token },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http.post(
          `/workspaces/${workspace.id}/collections/${list.id}/items`,
          { title: 'no' },
          { token: viewer.token },
        )
      ).status,
    ).toBe(403);
  });
});
