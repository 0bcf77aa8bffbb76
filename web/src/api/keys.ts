/**
 * Query keys of the app, in one place. Everything read inside a workspace
 * starts with `['ws', workspaceId]`, so that the live stream (live/) and a
 * switch of workspace can refresh or drop one workspace's data at once:
 *
 *   ['ws', id, 'collections' | 'groups' | 'fields' | 'statuses' | 'members' | 'invitations' | 'overview' | ...]
 *   ['ws', id, 'views', collectionId]
 *   ['ws', id, 'items', collectionId, ...rest]   a list's pages, counts, columns
 *   ['ws', id, 'item', itemIdOrKey]              one card
 *   ['ws', id, 'events', filters]                the activity feed
 *   ['ws', id, 'api-keys' | 'webhooks' | 'app-installations']   settings
 *   ['ws', id, 'webhooks', endpointId, 'deliveries']             an endpoint's deliveries
 */
export const keys = {
  me: ['me'] as const,
  registration: ['registration'] as const,
  workspaces: ['workspaces'] as const,
  workspace: (workspaceId: string) => ['ws', workspaceId] as const,
  inWorkspace: <const Rest extends readonly unknown[]>(workspaceId: string, ...rest: Rest) =>
    ['ws', workspaceId, ...rest] as const,
  collections: (workspaceId: string) => ['ws', workspaceId, 'collections'] as const,
  groups: (workspaceId: string) => ['ws', workspaceId, 'groups'] as const,
  fields: (workspaceId: string) => ['ws', workspaceId, 'fields'] as const,
  statuses: (workspaceId: string) => ['ws', workspaceId, 'statuses'] as const,
  members: (workspaceId: string) => ['ws', workspaceId, 'members'] as const,
  invitations: (workspaceId: string) => ['ws', workspaceId, 'invitations'] as const,
  overview: (workspaceId: string) => ['ws', workspaceId, 'overview'] as const,
  views: (workspaceId: string, collectionId: string) =>
    ['ws', workspaceId, 'views', collectionId] as const,
  items: (workspaceId: string, collectionId: string) =>
    ['ws', workspaceId, 'items', collectionId] as const,
  item: (workspaceId: string, itemIdOrKey: string) =>
    ['ws', workspaceId, 'item', itemIdOrKey] as const,
  events: (workspaceId: string) => ['ws', workspaceId, 'events'] as const,
  apiKeys: (workspaceId: string) => ['ws', workspaceId, 'api-keys'] as const,
  webhooks: (workspaceId: string) => ['ws', workspaceId, 'webhooks'] as const,
  webhook: (workspaceId: string, endpointId: string) =>
    ['ws', workspaceId, 'webhooks', endpointId] as const,
  deliveries: (workspaceId: string, endpointId: string) =>
    ['ws', workspaceId, 'webhooks', endpointId, 'deliveries'] as const,
  appInstallations: (workspaceId: string) => ['ws', workspaceId, 'app-installations'] as const,
};
