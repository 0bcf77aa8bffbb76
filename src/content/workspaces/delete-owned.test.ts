import { describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { createField, createWorkspace } from '../../../test/helpers/factories.js';

/**
 * Deleting a workspace removes everything it owns (spec), the registry
 * version that field, status and list changes bump included, even when
 * registry writes run while it is deleted. Meaningful under concurrency on
 * PostgreSQL; PGlite runs the requests one after another.
 */
const t = useApp();

async function versionRows(workspaceId: string) {
  return t.db
    .selectFrom('registry_versions')
    .select('workspace_id')
    .where('workspace_id', '=', workspaceId)
    .execute();
}

describe('DELETE /workspaces/{id} and its registry version', () => {
  it('leaves no registry_versions row behind', async () => {
    const workspace = await createWorkspace(t);
    await createField(t, workspace, { key: 'points', type: 'number', name: 'Points' });
    expect(await versionRows(workspace.id)).toHaveLength(1);
    const deleted = await t.http.delete(`/workspaces/${workspace.id}`, {
      token: workspace.owner.token,
      body: { slug: workspace.slug },
    });
    expect(deleted.status).toBe(204);
    expect(await versionRows(workspace.id)).toHaveLength(0);
  });

  it('leaves none behind while fields are written during the delete', async () => {
    for (let round = 0; round < 8; round++) {
      const workspace = await createWorkspace(t);
      await createField(t, workspace, { key: 'seed', type: 'text', name: 'Seed' });
      const token = workspace.owner.token;
      const writes = Array.from({ length: 8 }, (_, index) =>
        t.http.post(
          `/workspaces/${workspace.id}/fields`,
          { key: `f${round}_${index}`, type: 'text', name: `F ${index}` },
          { token },
        ),
      );
      const removal = t.http.delete(`/workspaces/${workspace.id}`, {
        token,
        body: { slug: workspace.slug },
      });
      const [removed, ...written] = await Promise.all([removal, ...writes]);
      expect(removed.status, removed.text).toBe(204);
      // A write either committed before the delete (and was removed with it) or found no workspace.
      for (const write of written) expect([201, 404], write.text).toContain(write.status);
      expect(await versionRows(workspace.id)).toHaveLength(0);
    }
  });
});
