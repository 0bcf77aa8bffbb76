import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type WorkspaceEvent = components['schemas']['Event'];
export type EventType = WorkspaceEvent['type'];
export type EventCause = WorkspaceEvent['cause'];

/** Every event type of the log's closed list, by the kind of thing it is about. */
export const EVENT_TYPES: readonly EventType[] = [
  'item.created',
  'item.updated',
  'item.moved',
  'item.deleted',
  'item.attached',
  'item.detached',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'collection_group.created',
  'collection_group.updated',
  'collection_group.deleted',
  'field.created',
  'field.updated',
  'field.deleted',
  'status.created',
  'status.updated',
  'status.deleted',
  'view.created',
  'view.updated',
  'view.deleted',
  'workspace.updated',
];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && EVENT_TYPES.some((type) => type === value);
}

/** The filters of the activity feed (the screen keeps them in its address). */
export interface EventFilters {
  type?: EventType;
  cause?: EventCause;
  batchId?: string;
}

const EVENTS_PAGE = 25;

/** The log, newest first, a page at a time (keyset: each page continues `before` the last). */
export const eventsQuery = (workspaceId: string, filters: EventFilters) =>
  infiniteQueryOptions({
    queryKey: [...keys.events(workspaceId), filters] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/events', {
          params: {
            path: { workspaceId },
            query: {
              order: 'desc',
              limit: EVENTS_PAGE,
              ...(pageParam === undefined ? {} : { before: pageParam }),
              ...(filters.type === undefined ? {} : { type: [filters.type] }),
              ...(filters.cause === undefined ? {} : { cause: filters.cause }),
              ...(filters.batchId === undefined ? {} : { batchId: filters.batchId }),
            },
          },
        }),
      ),
    getNextPageParam: (page) => (page.hasMore ? (page.nextCursor ?? undefined) : undefined),
  });

/** A moment in the reader's own locale and time zone. */
export function formatMoment(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
