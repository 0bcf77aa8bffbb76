import type { FetchOptions } from 'openapi-fetch';
import type { SparrowClient } from './client.js';
import { unwrap } from './errors.js';
import type { paths } from './types.js';

/**
 * The keyset-paged operations: where the cursor goes (query or body, and
 * under which name), which member of the page holds the next one, which
 * holds the items, and when there is no more.
 */
const PAGED = {
  '/workspaces/{workspaceId}/collections/{collectionId}/query': {
    method: 'post',
    in: 'body',
    cursor: () => 'cursor',
    next: 'nextCursor',
    items: 'items',
  },
  '/workspaces/{workspaceId}/search': {
    method: 'get',
    in: 'query',
    cursor: () => 'cursor',
    next: 'nextCursor',
    items: 'items',
  },
  '/workspaces/{workspaceId}/events': {
    method: 'get',
    in: 'query',
    // `asc` pages onwards with `since`, `desc` backwards with `before`.
    cursor: (query) => (query?.order === 'desc' ? 'before' : 'since'),
    next: 'nextCursor',
    items: 'events',
  },
  '/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries': {
    method: 'get',
    in: 'query',
    cursor: () => 'before',
    next: 'nextCursor',
    items: 'deliveries',
  },
  '/api/orgs/{orgId}/projects/{projectId}/versions': {
    method: 'get',
    in: 'query',
    cursor: () => 'before',
    next: 'nextBefore',
    items: 'versions',
  },
  '/api/orgs/{orgId}/deployments/{deploymentId}/job-runs': {
    method: 'get',
    in: 'query',
    cursor: () => 'before',
    next: 'nextBefore',
    items: 'runs',
  },
  '/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/job-runs': {
    method: 'get',
    in: 'query',
    cursor: () => 'before',
    next: 'nextBefore',
    items: 'runs',
  },
} as const satisfies Record<string, PagedRule>;

interface PagedRule {
  method: 'get' | 'post';
  in: 'query' | 'body';
  cursor(query: Record<string, unknown> | undefined): string;
  next: string;
  items: string;
}

/** The paths `paginate` pages through. */
export type PagedPath = keyof typeof PAGED;
type Rule<P extends PagedPath> = (typeof PAGED)[P];
type Operation<P extends PagedPath> = paths[P][Rule<P>['method']];

/** The answer of one page of `P`. */
export type PageOf<P extends PagedPath> =
  Operation<P> extends {
    responses: { 200: { content: { 'application/json': infer Page } } };
  }
    ? Page
    : never;

/** One item of a page of `P` (a card, an event, a delivery, a version, a job run). */
export type ItemOf<P extends PagedPath> = PageOf<P>[Rule<P>['items'] & keyof PageOf<P>] extends
  | readonly (infer Item)[]
  | undefined
  ? Item
  : never;

/** The request of `P`, as openapi-fetch takes it; a cursor in it is where paging starts. */
export type PagedInit<P extends PagedPath> = FetchOptions<Operation<P>>;

/** Pages and items of a keyset-paged operation, fetched as they are read. */
export interface Paginated<Item, Page> extends AsyncIterable<Item> {
  /** Each page as the server answers it (with its cursor, to save and resume from). */
  pages(): AsyncIterableIterator<Page>;
  /** Every item, page after page (`for await (const item of paginate(...))` does the same). */
  items(): AsyncIterableIterator<Item>;
  /** All the items in one array (stop at `max`; a safety for unbounded lists). */
  all(max?: number): Promise<Item[]>;
}

/** openapi-fetch's `request`, as `paginate` calls it with a path and a method from its table. */
type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Pages through a keyset-paged list or query: the next cursor of each page
 * is sent back as its cursor parameter until the server says there is no
 * more. `for await (const card of paginate(sparrow, path, { params, body }))`.
 */
export function paginate<P extends PagedPath>(
  client: SparrowClient,
  path: P,
  init: PagedInit<P>,
): Paginated<ItemOf<P>, PageOf<P>> {
  const rule: PagedRule = PAGED[path];
  // The table ties each path to its method; the call is typed for callers by PagedInit.
  const request = client.request as unknown as LooseRequest;
  const start: Record<string, unknown> = isRecord(init) ? init : {};

  async function* pages(): AsyncIterableIterator<PageOf<P>> {
    const params = isRecord(start.params) ? start.params : {};
    const query = isRecord(params.query) ? params.query : undefined;
    const cursorName = rule.cursor(query);
    let cursor: unknown = rule.in === 'query' ? query?.[cursorName] : undefined;
    if (rule.in === 'body' && isRecord(start.body)) cursor = start.body[cursorName];
    for (;;) {
      const paged =
        rule.in === 'query'
          ? { ...start, params: { ...params, query: { ...query, [cursorName]: cursor } } }
          : {
              ...start,
              body: { ...(isRecord(start.body) ? start.body : {}), [cursorName]: cursor },
            };
      const page = await unwrap(request(rule.method.toUpperCase(), path, paged));
      yield page as PageOf<P>;
      if (!isRecord(page)) return;
      const next = page[rule.next];
      const more = typeof page.hasMore === 'boolean' ? page.hasMore : next !== null;
      if (!more || next === null || next === undefined || next === cursor) return;
      cursor = next;
    }
  }

  async function* items(): AsyncIterableIterator<ItemOf<P>> {
    for await (const page of pages()) {
      const list: unknown = isRecord(page) ? page[rule.items] : undefined;
      if (Array.isArray(list)) yield* list as ItemOf<P>[];
    }
  }

  return {
    pages,
    items,
    [Symbol.asyncIterator]: items,
    async all(max = Number.POSITIVE_INFINITY) {
      const found: ItemOf<P>[] = [];
      for await (const item of items()) {
        if (found.length >= max) break;
        found.push(item);
      }
      return found;
    },
  };
}
