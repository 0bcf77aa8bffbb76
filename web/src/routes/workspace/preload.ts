import type { QueryClient } from '@tanstack/react-query';
import { fieldsQuery } from '../../api/fields.js';
import { collectionsQuery, groupsQuery, viewsQuery } from '../../api/lists.js';
import { membersQuery } from '../../api/members.js';
import { statusesQuery } from '../../api/statuses.js';

/**
 * What a route's screens read, asked for all at once while the route loads:
 * the screen then renders with its data instead of suspending on one query
 * after another (each suspension a round trip, and React holds a revealed
 * boundary back up to 300 ms). Prefetches never throw: a refusal reaches
 * the screen's own query, which shows it.
 */
export function preloadWorkspace(client: QueryClient, workspaceId: string): Promise<unknown> {
  return Promise.all([
    client.prefetchQuery(collectionsQuery(workspaceId)),
    client.prefetchQuery(groupsQuery(workspaceId)),
    client.prefetchQuery(fieldsQuery(workspaceId)),
    client.prefetchQuery(statusesQuery(workspaceId)),
    client.prefetchQuery(membersQuery(workspaceId)),
  ]);
}

/** A list's saved views, with what every screen of the workspace reads. */
export function preloadList(
  client: QueryClient,
  workspaceId: string,
  listId: string,
): Promise<unknown> {
  return Promise.all([
    preloadWorkspace(client, workspaceId),
    client.prefetchQuery(viewsQuery(workspaceId, listId)),
  ]);
}
