import { type EventCause, type EventType, isEventType } from '../../../api/events.js';

/**
 * The activity feed's filters, kept in its address so that a filtered feed
 * can be shared and reloaded, and so that a bulk edit's result can link to
 * its batch: `/app/{slug}/activity?batch=<batchId>`.
 *
 *   type   one event type of the log's closed list (`item.updated`)
 *   cause  `edit` (changes made by hand or by the API) or `import`
 *   batch  a batch id (UUID): the events of one bulk edit, import or cascade
 *
 * Anything else, or a malformed value, is dropped.
 */
export interface ActivitySearch {
  type?: EventType;
  cause?: EventCause;
  batch?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function activitySearch(search: Record<string, unknown>): ActivitySearch {
  const result: ActivitySearch = {};
  if (isEventType(search.type)) result.type = search.type;
  if (search.cause === 'edit' || search.cause === 'import') result.cause = search.cause;
  if (typeof search.batch === 'string' && UUID.test(search.batch)) result.batch = search.batch;
  return result;
}
