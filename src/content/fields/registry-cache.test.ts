import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import type { TestApp } from '../../../test/helpers/app.js';
import {
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../../../test/helpers/factories.js';
import { anotherTestApp } from '../../../test/helpers/processes.js';
import { RegistryCache } from './registry-cache.js';

const t = useApp();

const postgres = process.env.TEST_DATABASE_URL !== undefined;

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function setup(app: TestApp = t) {
  const workspace = await createWorkspace(app);
  const stage = await createField(app, workspace, {
    key: 'stage',
    type: 'select',
    name: 'Stage',
    config: { options: [{ label: 'A', color: '#000000' }] },
  });
  const list = await createCollection(app, workspace);
  return { workspace, stage, list, token: workspace.owner.token };
}

function query(app: TestApp, workspace: TestWorkspace, listId: string, definition: object) {
  return app.http.post(
    `/workspaces/${workspace.id}/collections/${listId}/query`,
    { definition },
    { token: workspace.owner.token },
  );
}

describe('registry cache', () => {
  it('serves reads from memory and sees every field, option, status and list change at once', async () => {
    const { workspace, stage, list, token } = await setup();
    const ws = `/workspaces/${workspace.id}` as const;
    const [a] = (stage.config.options ?? []).map((option) => option.id);
    await createItem(t, workspace, list.id, { properties: { stage: a } });
    const onA = { filter: { fieldId: stage.id, op: 'eq', value: a } };
    expect((await query(t, workspace, list.id, onA)).body.items).toHaveLength(1);
    expect(t.ctx.registries.holds(workspace.id)).toBe(true);

    // A new option: the notification evicts the workspace, and a read accepts the option.
    const added = await t.http.patch(
      `${ws}/fields/${stage.id}`,
      { config: { options: [...(stage.config.options ?? []), { label: 'B', color: '#000000' }] } },
      { token },
    );
    expect(added.status).toBe(200);
    await until(() => !t.ctx.registries.holds(workspace.id), 'the eviction');
    const b = added.body.config.options?.[1]?.id;
    const onB = await query(t, workspace, list.id, {
      filter: { fieldId: stage.id, op: 'eq', value: b },
    });
    expect(onB.status).toBe(200);

    // A new status shows in counts by status; a new list answers queries.
    const status = await t.http.post(
      `${ws}/statuses`,
      { name: 'Later', category: 'backlog', color: '#000000' },
      { token },
    );
    expect(status.status).toBe(201);
    const counts = await t.http.post(
      `${ws}/collections/${list.id}/group-counts`,
      { definition: { groupBy: { attribute: 'statusId' } } },
      { token },
    );
    expect(counts.body.map((group) => group.value)).toContain(status.body.id);
    const other = await createCollection(t, workspace);
    expect((await query(t, workspace, other.id, {})).status).toBe(200);

    // A deleted field is refused by the next read, even before any notification could arrive.
    expect((await t.http.delete(`${ws}/fields/${stage.id}`, { token })).status).toBe(204);
    const gone = await query(t, workspace, list.id, onA);
    expect(gone.status).toBe(400);
    expect(gone.body.error.code).toBe('unknown_field');
  });

  it('keeps what a write transaction read only while it had written nothing', async () => {
    const { workspace, list } = await setup();
    const registries = t.ctx.registries;
    await registries.stop();
    const cache = new RegistryCache();
    const version = async () =>
      Number(
        (
          await t.db
            .selectFrom('registry_versions')
            .select('version')
            .where('workspace_id', '=', workspace.id)
            .executeTakeFirstOrThrow()
        ).version,
      );
    // A write that has written nothing yet sees committed rows: what it reads is kept.
    const before = await version();
    await t.db.transaction().execute(async (trx) => {
      const read = await cache.get(trx, workspace.id, before);
      expect(read.version).toBe(before);
    });
    expect(cache.holds(workspace.id)).toBe(true);
    // A transaction that changed the registry sees its own change: what it reads is not kept,
    // even when it rolls back, so no reader ever gets a list that never existed.
    const doomed = '0190d6e2-3c4b-7def-8123-456789abcdef';
    const fresh = new RegistryCache();
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('collections')
          .values({
            id: doomed,
            workspace_id: workspace.id,
            name: 'Never committed',
            key_prefix: 'NEVER',
            position: 99,
            description: null,
            icon: null,
            field_ids: [],
            group_id: null,
          })
          .execute();
        const read = await fresh.get(trx, workspace.id, before + 1);
        expect(read.collectionIds.has(doomed)).toBe(true);
        throw new Error('roll back');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'roll back') throw error;
      });
    expect(fresh.holds(workspace.id)).toBe(false);
    const after = await fresh.get(t.db, workspace.id, await version());
    expect(after.collectionIds.has(doomed)).toBe(false);
    expect(after.collectionIds.has(list.id)).toBe(true);
    await registries.start(t.ctx.listener);
  });

  it('reloads by version when no notification arrives', async () => {
    const { workspace, stage, list, token } = await setup();
    expect((await query(t, workspace, list.id, {})).status).toBe(200);
    // Without a listener this app would still see the change through the version.
    await t.ctx.registries.stop();
    try {
      expect((await query(t, workspace, list.id, {})).status).toBe(200);
      expect(t.ctx.registries.holds(workspace.id)).toBe(true);
      expect(
        (await t.http.delete(`/workspaces/${workspace.id}/fields/${stage.id}`, { token })).status,
      ).toBe(204);
      const gone = await query(t, workspace, list.id, {
        filter: { fieldId: stage.id, op: 'isEmpty' },
      });
      expect(gone.body.error.code).toBe('unknown_field');
    } finally {
      await t.ctx.registries.start(t.ctx.listener);
    }
  });

  it.runIf(postgres)(
    'a second server sees the first one’s registry change through NOTIFY',
    async () => {
      const b = await anotherTestApp(t);
      try {
        for (let round = 0; round < 5; round++) {
          const { workspace, stage, list, token } = await setup(t);
          // The set-up's own writes notify B too, and one may land just after B
          // loaded the registry and drop it: B loads it again until it holds it.
          let held = false;
          for (let tries = 0; !held && tries < 50; tries++) {
            expect((await query(b, workspace, list.id, {})).status).toBe(200);
            held = b.ctx.registries.holds(workspace.id);
          }
          expect(held).toBe(true);
          const added = await t.http.patch(
            `/workspaces/${workspace.id}/fields/${stage.id}`,
            {
              config: {
                options: [...(stage.config.options ?? []), { label: 'B', color: '#000000' }],
              },
            },
            { token },
          );
          expect(added.status).toBe(200);
          await until(() => !b.ctx.registries.holds(workspace.id), 'app B to drop the workspace');
          const value = added.body.config.options?.[1]?.id;
          const onB = await query(b, workspace, list.id, {
            filter: { fieldId: stage.id, op: 'eq', value },
          });
          expect(onB.status).toBe(200);
        }
      } finally {
        await b.close();
      }
    },
  );
});
