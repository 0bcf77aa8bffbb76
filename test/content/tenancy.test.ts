import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApp } from '../fixtures/app.js';
import { at } from '../helpers/assert.js';
import {
  addMember,
  createCollection,
  createField,
  createItem,
  createWorkspace,
  type TestWorkspace,
} from '../helpers/factories.js';

const t = useApp();

interface Tenant {
  workspace: TestWorkspace;
  ids: Record<string, string>;
}

/** Installs a new app in the workspace through the OAuth exchange; returns the installation. */
async function installApp(workspace: TestWorkspace) {
  const token = workspace.owner.token;
  const redirectUri = 'https://app.example.test/cb';
  const app = (
    await t.http.post(
      '/apps',
      { name: 'A', redirectUris: [redirectUri], scopes: ['items:read'] },
      { token },
    )
  ).body;
  const verifier = randomBytes(32).toString('base64url');
  const granted = await t.http.post(
    '/oauth/authorize',
    {
      clientId: app.clientId,
      redirectUri,
      workspaceId: workspace.id,
      scopes: ['items:read'],
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
    },
    { token },
  );
  const exchanged = await t.http.post('/oauth/token', {
    code: granted.body.code,
    clientSecret: app.clientSecret,
    redirectUri,
    codeVerifier: verifier,
  });
  return exchanged.body.installation as { id: string };
}

/** A workspace with one of every resource a content path can name. */
async function tenant(): Promise<Tenant> {
  const workspace = await createWorkspace(t);
  const token = workspace.owner.token;
  const member = await addMember(t, workspace, 'member');
  const field = await createField(t, workspace, { key: 'tag', type: 'select', name: 'Tag' });
  const endpoint = (
    await t.http.post(
      `/workspaces/${workspace.id}/webhooks`,
      { url: 'https://hooks.example.test/in', eventTypes: ['*'] },
      { token },
    )
  ).body;
  const collection = await createCollection(t, workspace);
  const second = await createCollection(t, workspace);
  const item = await createItem(t, workspace, collection.id);
  await t.http.post(
    `/workspaces/${workspace.id}/items/${item.id}/collections`,
    { collectionId: second.id },
    { token },
  );
  const statuses = (await t.http.get(`/workspaces/${workspace.id}/statuses`, { token })).body;
  const view = (
    await t.http.post(
      `/workspaces/${workspace.id}/collections/${collection.id}/views`,
      { name: 'V', definition: {} },
      { token },
    )
  ).body;
  const group = (
    await t.http.post(`/workspaces/${workspace.id}/collection-groups`, { name: 'G' }, { token })
  ).body;
  const key = (
    await t.http.post(
      `/workspaces/${workspace.id}/api-keys`,
      { name: 'K', role: 'viewer' },
      { token },
    )
  ).body;
  const file = (
    await t.http.raw({
      method: 'POST',
      url: `/workspaces/${workspace.id}/files`,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'multipart/form-data; boundary=B',
      },
      payload:
        '--B\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\n\r\nhi\r\n--B--\r\n',
    })
  ).body;
  const invitation = (
    await t.http.post(
      `/workspaces/${workspace.id}/invitations`,
      { email: 'invitee@example.test', role: 'viewer' },
      { token },
    )
  ).body;
  const installation = await installApp(workspace);
  const delivery = at(
    (await t.http.get(`/workspaces/${workspace.id}/webhooks/${endpoint.id}/deliveries`, { token }))
      .body.deliveries,
    0,
  );
  return {
    workspace,
    ids: {
      endpointId: endpoint.id,
      invitationId: invitation.id,
      installationId: installation.id,
      deliveryId: delivery.id,
      workspaceId: workspace.id,
      userId: member.user.id,
      fieldId: field.id,
      collectionId: collection.id,
      secondCollectionId: second.id,
      itemId: item.id,
      statusId: at(statuses, 0).id,
      allStatusIds: statuses.map((status) => status.id).join(','),
      viewId: view.id,
      groupId: group.id,
      keyId: key.id,
      fileId: file.id,
    },
  };
}

/** A valid body for each content write, so that only tenancy can refuse it. */
function sampleBody(route: string, ids: Record<string, string>, slug: string): unknown {
  const bodies: Record<string, unknown> = {
    'PATCH /workspaces/:workspaceId': { name: 'Renamed' },
    'DELETE /workspaces/:workspaceId': { slug },
    'POST /workspaces/:workspaceId/members': { email: 'nobody@example.test', role: 'viewer' },
    'PATCH /workspaces/:workspaceId/members/me': { avatarFileId: null },
    'POST /workspaces/:workspaceId/statuses': {
      name: 'New',
      color: '#000000',
      category: 'backlog',
    },
    'PUT /workspaces/:workspaceId/statuses/order': {
      statusIds: (ids.allStatusIds ?? '').split(','),
    },
    'PATCH /workspaces/:workspaceId/statuses/:statusId': { name: 'Renamed' },
    'POST /workspaces/:workspaceId/files': {},
    'POST /workspaces/:workspaceId/fields': { key: 'fresh', type: 'text', name: 'Fresh' },
    'PATCH /workspaces/:workspaceId/fields/:fieldId': { name: 'Renamed' },
    'POST /workspaces/:workspaceId/fields/:fieldId/options': { label: 'New', color: '#000000' },
    'POST /workspaces/:workspaceId/collections': { name: 'New', keyPrefix: 'NEWX' },
    'PUT /workspaces/:workspaceId/collections/order': {
      collections: [{ id: ids.collectionId, groupId: null }],
    },
    'PATCH /workspaces/:workspaceId/collections/:collectionId': { name: 'Renamed' },
    'POST /workspaces/:workspaceId/collection-groups': { name: 'New' },
    'PUT /workspaces/:workspaceId/collection-groups/order': { groupIds: [ids.groupId] },
    'PATCH /workspaces/:workspaceId/collection-groups/:groupId': { name: 'Renamed' },
    'POST /workspaces/:workspaceId/collections/:collectionId/views': {
      name: 'New',
      definition: {},
    },
    'PATCH /workspaces/:workspaceId/collections/:collectionId/views/:viewId': { name: 'Renamed' },
    'POST /workspaces/:workspaceId/collections/:collectionId/items': { title: 'New' },
    'PATCH /workspaces/:workspaceId/items/:itemId': { title: 'Renamed' },
    'POST /workspaces/:workspaceId/items/:itemId/move': { afterItemId: null },
    'POST /workspaces/:workspaceId/items/:itemId/collections': {
      collectionId: ids.secondCollectionId,
    },
    'POST /workspaces/:workspaceId/items/:itemId/duplicate': undefined,
    'POST /workspaces/:workspaceId/api-keys': { name: 'New', role: 'viewer' },
    'POST /workspaces/:workspaceId/collections/:collectionId/query': { definition: {} },
    'POST /workspaces/:workspaceId/collections/:collectionId/group-counts': {
      definition: { groupBy: { attribute: 'statusId' } },
    },
    'POST /workspaces/:workspaceId/collections/:collectionId/grouped-query': {
      definition: { groupBy: { attribute: 'statusId' } },
      groups: [ids.statusId],
    },
    'POST /workspaces/:workspaceId/collections/:collectionId/bulk-preview': { definition: {} },
    'POST /workspaces/:workspaceId/collections/:collectionId/bulk-update': {
      definition: {},
      patch: { statusId: ids.statusId },
    },
    'POST /workspaces/:workspaceId/webhooks': {
      url: 'https://hooks.example.test/new',
      eventTypes: ['*'],
    },
    'PATCH /workspaces/:workspaceId/webhooks/:endpointId': { eventTypes: ['item.*'] },
    'POST /workspaces/:workspaceId/webhooks/:endpointId/pause': undefined,
    'POST /workspaces/:workspaceId/webhooks/:endpointId/resume': undefined,
    'POST /workspaces/:workspaceId/webhooks/:endpointId/rotate-secret': undefined,
    'POST /workspaces/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId/replay': undefined,
    'POST /workspaces/:workspaceId/invitations': { email: 'x@example.test', role: 'viewer' },
    'POST /workspaces/:workspaceId/import': {
      collections: [{ externalSource: 's', externalId: 'c', name: 'Imported', keyPrefix: 'IMP' }],
      items: [
        { externalSource: 's', externalId: 'i', title: 'I', collection: { externalId: 'c' } },
      ],
    },
  };
  if (!(route in bodies) && !route.startsWith('GET ') && !route.startsWith('DELETE ')) {
    throw new Error(`The tenancy walk has no sample body for ${route}: add one`);
  }
  return bodies[route];
}

/** Required query strings, by route. */
const QUERIES: Record<string, string> = { 'GET /workspaces/:workspaceId/search': '?q=card' };

function fill(
  url: string,
  ids: Record<string, string>,
  overrides: Record<string, string> = {},
): string {
  return url.replace(
    /:(\w+)/g,
    (_match, name: string) => overrides[name] ?? ids[name] ?? `missing-${name}`,
  );
}

async function snapshot(workspaceId: string) {
  const count = async (
    table:
      | 'items'
      | 'fields'
      | 'statuses'
      | 'collections'
      | 'collection_views'
      | 'collection_groups'
      | 'files'
      | 'workspace_members'
      | 'item_collections'
      | 'webhook_endpoints'
      | 'webhook_deliveries',
  ) =>
    (
      await t.db
        .selectFrom(table)
        .select('workspace_id')
        .where('workspace_id', '=', workspaceId)
        .execute()
    ).length;
  const names = await t.db
    .selectFrom('workspaces')
    .select(['name'])
    .where('id', '=', workspaceId)
    .execute();
  return {
    names,
    items: await count('items'),
    fields: await count('fields'),
    statuses: await count('statuses'),
    collections: await count('collections'),
    views: await count('collection_views'),
    groups: await count('collection_groups'),
    files: await count('files'),
    members: await count('workspace_members'),
    attachments: await count('item_collections'),
    webhooks: await count('webhook_endpoints'),
    deliveries: await count('webhook_deliveries'),
    events: (
      await t.db.selectFrom('events').select('id').where('workspace_id', '=', workspaceId).execute()
    ).length,
  };
}

describe('tenancy', () => {
  it('answers 404 on every workspace route, on both roots, for another workspace and its resources', async () => {
    const a = await tenant();
    const b = await tenant();
    const before = await snapshot(a.workspace.id);
    const routes = t.routes.filter(
      (route) =>
        route.api === 'content' &&
        route.canonicalUrl.includes(':workspaceId') &&
        route.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.canonicalUrl}`;
      const send = async (url: string, token: string, ids: Record<string, string>) => {
        const body = sampleBody(key, ids, a.workspace.slug);
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: `${url}${QUERIES[key] ?? ''}`,
          headers: { authorization: `Bearer ${token}` },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        return response;
      };
      // An outsider names workspace A and A's resources.
      const outsider = await send(fill(route.url, a.ids), b.workspace.owner.token, a.ids);
      if (outsider.statusCode !== 404)
        failures.push(`${key} as outsider: ${outsider.statusCode} ${outsider.body}`);
      // B's owner names B's workspace but A's resources.
      const foreignParams = (route.canonicalUrl.match(/:(\w+)/g) ?? []).filter(
        (param) => param !== ':workspaceId',
      );
      if (foreignParams.length > 0) {
        const mixed = await send(
          fill(route.url, a.ids, { workspaceId: b.workspace.id }),
          b.workspace.owner.token,
          b.ids,
        );
        if (mixed.statusCode !== 404)
          failures.push(`${key} with foreign ids: ${mixed.statusCode} ${mixed.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(a.workspace.id)).toEqual(before);
  });
});
