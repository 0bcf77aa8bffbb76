import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../../test/fixtures/database.js';
import { ownedWorkspace } from '../../../test/fixtures/workspace-access.js';
import { inTransaction } from '../../db/transaction.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import {
  createStatus,
  DEFAULT_STATUSES,
  deleteStatus,
  listStatuses,
  reorderStatuses,
} from './service.js';

const t = useDatabase();

/** The status rules on the database alone, each call in a transaction of its own as a route opens. */
describe('the status service', () => {
  const statusEvents = (access: WorkspaceAccess) =>
    t.db
      .selectFrom('events')
      .select(['type', 'resource_id'])
      .where('workspace_id', '=', access.workspaceId)
      .where('type', 'like', 'status.%')
      .orderBy('id')
      .execute();

  it('gives a new workspace the default statuses in order, one event each', async () => {
    const access = await ownedWorkspace(t.db);
    const statuses = await listStatuses(t.db, access.workspaceId);
    expect(statuses.map(({ name, color, category }) => ({ name, color, category }))).toEqual(
      DEFAULT_STATUSES,
    );
    expect(statuses.map((status) => status.position)).toEqual([0, 1, 2]);
    expect((await statusEvents(access)).map((event) => event.type)).toEqual([
      'status.created',
      'status.created',
      'status.created',
    ]);
  });

  it('refuses a name already used in the workspace, and writes nothing', async () => {
    const access = await ownedWorkspace(t.db);
    const other = await ownedWorkspace(t.db);
    const before = await statusEvents(access);
    await expect(
      inTransaction(t.db, (trx) =>
        createStatus(trx, access, { name: 'Todo', color: '#000000', category: 'unstarted' }),
      ),
    ).rejects.toMatchObject({ status: 409, code: 'status_name_taken' });
    expect(await statusEvents(access)).toEqual(before);
    const elsewhere = await inTransaction(t.db, (trx) =>
      createStatus(trx, other, { name: 'Review', color: '#000000', category: 'started' }),
    );
    expect(elsewhere.position).toBe(3);
  });

  it('keeps at least one status', async () => {
    const access = await ownedWorkspace(t.db);
    const [first, second, third] = await listStatuses(t.db, access.workspaceId);
    for (const status of [first, second]) {
      if (status === undefined) throw new Error('a default status is missing');
      await inTransaction(t.db, (trx) => deleteStatus(trx, access, status.id));
    }
    if (third === undefined) throw new Error('a default status is missing');
    await expect(
      inTransaction(t.db, (trx) => deleteStatus(trx, access, third.id)),
    ).rejects.toMatchObject({ status: 409, code: 'last_status' });
    expect(await listStatuses(t.db, access.workspaceId)).toHaveLength(1);
  });

  it('reorders only from a list of every status exactly once, with an event per moved status', async () => {
    const access = await ownedWorkspace(t.db);
    const ids = (await listStatuses(t.db, access.workspaceId)).map((status) => status.id);
    const [a, b, c] = ids;
    if (a === undefined || b === undefined || c === undefined) throw new Error('three statuses');
    for (const statusIds of [[a, b], [a, b, b], [a, b, c, c], []]) {
      await expect(
        inTransaction(t.db, (trx) => reorderStatuses(trx, access, { statusIds })),
      ).rejects.toMatchObject({ status: 400, code: 'invalid_order' });
    }
    const before = (await statusEvents(access)).length;
    const reordered = await inTransaction(t.db, (trx) =>
      reorderStatuses(trx, access, { statusIds: [a, c, b] }),
    );
    expect(reordered.map((status) => status.id)).toEqual([a, c, b]);
    const events = (await statusEvents(access)).slice(before);
    expect(events.map((event) => event.resource_id).sort()).toEqual([b, c].sort());
  });
});
