import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createTestApp } from '../../../test/helpers/app.js';
import { at } from '../../../test/helpers/assert.js';
import {
  addMember,
  allEvents,
  createField,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';
import {
  batchReadPath,
  findBatch,
  type Receiver,
  startReceiver,
} from '../../../test/helpers/receiver.js';
import { newId } from '../../lib/ids.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';

const t = useApp(() => createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', MAX_UPLOAD_BYTES: '1024' }));
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

function importBatch(workspace: TestWorkspace, body: unknown, token = workspace.owner.token) {
  return t.http.post(`/workspaces/${workspace.id}/import`, body, { token });
}

const board = { externalSource: 'trello', externalId: 'board-1', name: 'Board', keyPrefix: 'TR' };

async function itemCount(workspace: TestWorkspace) {
  return (
    await t.db.selectFrom('items').select('id').where('workspace_id', '=', workspace.id).execute()
  ).length;
}

describe('import', () => {
  it('creates collections and cards, parents cited by external id in any order', async () => {
    const workspace = await createWorkspace(t);
    const response = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'card-2',
          title: 'Child',
          collection: { externalId: 'board-1' },
          parent: { externalId: 'card-1' },
        },
        {
          externalSource: 'trello',
          externalId: 'card-1',
          title: 'Parent',
          collection: { externalSource: 'trello', externalId: 'board-1' },
          body: '# Hello',
        },
      ],
    });
    expect(response.status).toBe(200);
    const { batchId } = response.body;
    expect(response.body).toMatchObject({
      collections: { created: 1, updated: 0, unchanged: 0 },
      items: { created: 2, updated: 0, unchanged: 0 },
      files: { created: 0, updated: 0, unchanged: 0 },
    });
    const child = at(response.body.records.items, 0);
    const parent = at(response.body.records.items, 1);
    const fetched = await t.http.get(`/workspaces/${workspace.id}/items/${child.id}`, {
      token: workspace.owner.token,
    });
    expect(fetched.body).toMatchObject({
      title: 'Child',
      parentId: parent.id,
      externalSource: 'trello',
      externalId: 'card-2',
      key: expect.stringMatching(/^TR-\d+$/),
    });
    const events = await allEvents(t, workspace, { batchId });
    expect(events.map((event) => event.type).sort()).toEqual([
      'collection.created',
      'item.created',
      'item.created',
    ]);
    expect(events.every((event) => event.cause === 'import')).toBe(true);
    const edits = await allEvents(t, workspace, { cause: 'edit' });
    expect(edits.some((event) => event.batchId === batchId)).toBe(false);
  });

  it('updates what changed across batches and counts the rest unchanged', async () => {
    const workspace = await createWorkspace(t);
    const first = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'a',
          title: 'A',
          collection: { externalId: 'board-1' },
        },
        {
          externalSource: 'trello',
          externalId: 'b',
          title: 'B',
          collection: { externalId: 'board-1' },
        },
      ],
    });
    const { batchId } = first.body;
    const second = await importBatch(workspace, {
      batchId,
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'a',
          title: 'A',
          collection: { externalId: 'board-1' },
        },
        {
          externalSource: 'trello',
          externalId: 'b',
          title: 'B, renamed',
          collection: { externalId: 'board-1' },
        },
        {
          externalSource: 'trello',
          externalId: 'c',
          title: 'C under A',
          collection: { externalId: 'board-1' },
          parent: { externalId: 'a' },
        },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.batchId).toBe(batchId);
    expect(second.body).toMatchObject({
      collections: { created: 0, updated: 0, unchanged: 1 },
      items: { created: 1, updated: 1, unchanged: 1 },
    });
    expect(second.body.records.items.map((record) => record.outcome)).toEqual([
      'unchanged',
      'updated',
      'created',
    ]);
    expect(at(second.body.records.items, 0).id).toBe(at(first.body.records.items, 0).id);
    const updates = await allEvents(t, workspace, { batchId, type: 'item.updated' });
    expect(updates).toHaveLength(1);
    expect(updates[0]?.changes).toEqual({ title: { before: 'B', after: 'B, renamed' } });
    expect(await itemCount(workspace)).toBe(3);
    expect((await importBatch(workspace, { batchId: newId(), items: [] })).status).toBe(404);
  });

  it('refuses a batch with a bad row, naming it, and writes nothing', async () => {
    const workspace = await createWorkspace(t);
    const before = (await allEvents(t, workspace)).length;
    const response = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 's',
          externalId: '1',
          title: 'Fine',
          collection: { externalSource: 'trello', externalId: 'board-1' },
        },
        {
          externalSource: 's',
          externalId: '2',
          title: 'Bad status',
          collection: { externalSource: 'trello', externalId: 'board-1' },
          statusId: newId(),
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'import_row_refused',
      details: { kind: 'items', index: 1, code: 'invalid_status' },
    });
    const unknown = await importBatch(workspace, {
      items: [
        { externalSource: 's', externalId: '1', title: 'X', collection: { externalId: 'nowhere' } },
      ],
    });
    expect(unknown.body.error.details).toMatchObject({ index: 0, code: 'unknown_collection' });
    const property = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'p',
          title: 'X',
          collection: { externalId: 'board-1' },
          properties: { nope: 1 },
        },
      ],
    });
    expect(property.body.error.details).toMatchObject({ index: 0, code: 'unknown_property' });
    const loop = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'x',
          title: 'X',
          collection: { externalId: 'board-1' },
          parent: { externalId: 'y' },
        },
        {
          externalSource: 'trello',
          externalId: 'y',
          title: 'Y',
          collection: { externalId: 'board-1' },
          parent: { externalId: 'x' },
        },
      ],
    });
    expect(loop.status).toBe(400);
    expect(loop.body.error.details).toMatchObject({ code: 'invalid_parent' });
    const card = { externalSource: 'trello', title: 'X', collection: { externalId: 'board-1' } };
    const badBlock = await importBatch(workspace, {
      collections: [board],
      items: [
        { ...card, externalId: 'b1' },
        { ...card, externalId: 'b2', blocks: { blocks: [{ type: 'marquee' }] } },
      ],
    });
    expect(badBlock.body.error).toMatchObject({
      code: 'unknown_block_type',
      details: { issues: [{ path: '/items/1/blocks/blocks/0/type' }] },
    });
    const badLink = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          ...card,
          externalId: 'b3',
          blocks: {
            blocks: [{ type: 'quote', content: [{ type: 'link', href: 'ftp://x', content: [] }] }],
          },
        },
      ],
    });
    expect(badLink.body.error).toMatchObject({
      code: 'import_row_refused',
      details: { index: 0, code: 'invalid_link' },
    });
    const twice = await importBatch(workspace, {
      collections: [board, board],
    });
    expect(twice.body.error.details).toMatchObject({
      kind: 'collections',
      index: 1,
      code: 'duplicate_external_id',
    });
    expect(await itemCount(workspace)).toBe(0);
    expect(
      (
        await t.db
          .selectFrom('collections')
          .select('id')
          .where('workspace_id', '=', workspace.id)
          .execute()
      ).length,
    ).toBe(0);
    expect((await allEvents(t, workspace)).length).toBe(before);
  });

  it('checks credentials, input and roles', async () => {
    const workspace = await createWorkspace(t);
    expect((await t.http.post(`/workspaces/${workspace.id}/import`, { items: [] })).status).toBe(
      401,
    );
    expect((await importBatch(workspace, { items: [], extra: true })).status).toBe(400);
    const tooMany = Array.from({ length: 501 }, (_, index) => ({
      externalSource: 's',
      externalId: `${index}`,
      title: 'x',
      collection: { externalId: 'l' },
    }));
    expect((await importBatch(workspace, { items: tooMany })).status).toBe(400);
    const viewer = await addMember(t, workspace, 'viewer');
    expect((await importBatch(workspace, { items: [] }, viewer.token)).status).toBe(403);
    const member = await addMember(t, workspace, 'member');
    const denied = await importBatch(workspace, { collections: [board] }, member.token);
    expect(denied.status).toBe(403);
    expect((await importBatch(workspace, { items: [] }, member.token)).status).toBe(200);
    const outsider = await createWorkspace(t);
    expect((await importBatch(workspace, { items: [] }, outsider.owner.token)).status).toBe(404);
  });

  it('keeps the pair outside ordinary edits', async () => {
    const workspace = await createWorkspace(t);
    const imported = await importBatch(workspace, {
      collections: [board],
      items: [
        {
          externalSource: 'trello',
          externalId: 'k',
          title: 'K',
          collection: { externalId: 'board-1' },
        },
      ],
    });
    const id = at(imported.body.records.items, 0).id;
    const patched = await t.http.patch(
      `/workspaces/${workspace.id}/items/${id}`,
      { externalId: 'other' },
      { token: workspace.owner.token },
    );
    expect(patched.status).toBe(400);
    const copy = await t.http.post(`/workspaces/${workspace.id}/items/${id}/duplicate`, undefined, {
      token: workspace.owner.token,
    });
    expect(copy.body).toMatchObject({ externalSource: null, externalId: null });
  });

  it('imports files by content, unchanged when the bytes are, and cites them from cards', async () => {
    const workspace = await createWorkspace(t);
    await createField(t, workspace, { key: 'attachment', type: 'file', name: 'Attachment' });
    const file = {
      externalSource: 'trello',
      externalId: 'f1',
      name: 'notes.txt',
      contentBase64: Buffer.from('hello').toString('base64'),
    };
    const first = await importBatch(workspace, {
      collections: [board],
      files: [file],
      items: [
        {
          externalSource: 'trello',
          externalId: 'with-file',
          title: 'Has a file',
          collection: { externalId: 'board-1' },
          properties: { attachment: { externalId: 'f1' } },
        },
      ],
    });
    expect(first.status).toBe(200);
    const fileId = at(first.body.records.files, 0).id;
    const item = await t.http.get(
      `/workspaces/${workspace.id}/items/${at(first.body.records.items, 0).id}`,
      { token: workspace.owner.token },
    );
    expect(item.body.properties.attachment).toBe(fileId);
    const again = await importBatch(workspace, { files: [file] });
    expect(again.body.files).toEqual({ created: 0, updated: 0, unchanged: 1 });
    const changed = await importBatch(workspace, {
      files: [{ ...file, contentBase64: Buffer.from('hello again').toString('base64') }],
    });
    expect(changed.body.files).toEqual({ created: 0, updated: 1, unchanged: 0 });
    const content = await t.app.inject({
      url: `/workspaces/${workspace.id}/files/${fileId}/content`,
      headers: { authorization: `Bearer ${workspace.owner.token}` },
    });
    expect(content.body).toBe('hello again');
    const tooBig = await importBatch(workspace, {
      files: [{ ...file, externalId: 'big', contentBase64: Buffer.alloc(2000).toString('base64') }],
    });
    expect(tooBig.body.error.details).toMatchObject({ kind: 'files', code: 'file_too_large' });
    const bad = await importBatch(workspace, { files: [{ ...file, contentBase64: '!!!' }] });
    expect(bad.body.error.details).toMatchObject({ kind: 'files', code: 'invalid_base64' });
  });

  it('sends one webhook delivery per type for a 500-item import', async () => {
    const workspace = await createWorkspace(t);
    const endpoint = await t.http.post(
      `/workspaces/${workspace.id}/webhooks`,
      { url: receiver.url, eventTypes: ['item.*', 'collection.*'] },
      { token: workspace.owner.token },
    );
    const items = Array.from({ length: 500 }, (_, index) => ({
      externalSource: 'bulk',
      externalId: `card-${index}`,
      title: `Card ${index}`,
      collection: { externalSource: 'trello', externalId: 'board-1' },
    }));
    const response = await importBatch(workspace, { collections: [board], items });
    expect(response.status).toBe(200);
    expect(response.body.items.created).toBe(500);
    const page = await t.http.get(
      `/workspaces/${workspace.id}/webhooks/${endpoint.body.id}/deliveries`,
      { token: workspace.owner.token },
    );
    expect(
      page.body.deliveries.map((delivery) => [delivery.eventType, delivery.eventCount]).sort(),
    ).toEqual([
      ['collection.created', 1],
      ['item.created', 500],
    ]);
    const dispatcher = new WebhookDispatcher(t.db, t.ctx.config, t.ctx.log);
    const before = receiver.received.length;
    expect(await dispatcher.runOnce()).toBe(2);
    await dispatcher.close();
    const bodies = receiver.received.slice(before).map((entry) => entry.body);
    const created = findBatch(bodies, { type: 'item.created' });
    expect(created).toMatchObject({
      kind: 'batch',
      batch: { batchId: response.body.batchId, count: 500 },
    });
    const read = await t.http.get(batchReadPath(created), { token: workspace.owner.token });
    expect(read.body.events).toHaveLength(500);
    expect(read.body.events.every((event) => event.cause === 'import')).toBe(true);
  });
});
