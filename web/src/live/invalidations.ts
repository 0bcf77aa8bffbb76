/**
 * What an event of the workspace's log touches in the query cache (keys of
 * api/keys.ts). Pure, so the mapping is unit-tested; useLiveEvents applies it.
 * A key here is a prefix: invalidating ['ws', id, 'items'] refreshes every
 * list's pages, counts and columns.
 */

export type QueryKeyPrefix = readonly unknown[];

/** The part of a log event (the stream's `data:`) that decides what it touches. */
export interface LiveEvent {
  id: string;
  type: string;
  resource: { kind: string; id: string };
}

/** Whether a parsed `data:` is an event of the log (anything else is ignored). */
export function isLiveEvent(value: unknown): value is LiveEvent {
  if (typeof value !== 'object' || value === null) return false;
  if (!('id' in value) || !('type' in value) || !('resource' in value)) return false;
  const { id, type, resource } = value;
  if (typeof id !== 'string' || typeof type !== 'string') return false;
  if (typeof resource !== 'object' || resource === null) return false;
  return (
    'kind' in resource &&
    'id' in resource &&
    typeof resource.kind === 'string' &&
    typeof resource.id === 'string'
  );
}

/**
 * Sub-keys (after ['ws', id]) each resource's events touch. Cards feed the
 * lists' pages, the open cards, the overview's counts; the catalog (fields,
 * statuses) changes how cards read, so their lists and cards refresh too.
 * Every event is also a new line of the activity feed ('events').
 */
const TOUCHES: Record<string, readonly string[]> = {
  item: ['items', 'item', 'overview'],
  collection: ['collections', 'overview'],
  collection_group: ['groups', 'collections'],
  field: ['fields', 'items', 'item'],
  status: ['statuses', 'items', 'item', 'overview'],
  // A view's event names the view, not its list: every list's views refresh (a few small reads).
  view: ['views'],
  workspace: ['overview'],
};

/** The key prefixes an event makes stale. */
export function keysForEvent(workspaceId: string, event: LiveEvent): QueryKeyPrefix[] {
  const kind = event.type.split('.')[0] ?? '';
  const touched = TOUCHES[kind];
  // A type this app does not know yet (the list may grow): refresh the whole workspace.
  if (touched === undefined) return [['ws', workspaceId], ['workspaces']];
  const prefixes: QueryKeyPrefix[] = [...touched, 'events'].map((sub) => ['ws', workspaceId, sub]);
  // The workspace's name and cover live in the list of workspaces (the switcher, the header).
  if (kind === 'workspace') prefixes.push(['workspaces']);
  return prefixes;
}

function startsWith(key: QueryKeyPrefix, prefix: QueryKeyPrefix): boolean {
  return prefix.length <= key.length && prefix.every((part, index) => part === key[index]);
}

/**
 * The prefixes to invalidate for many events: each once, and none that a
 * shorter one already covers. A bulk edit of 5,000 cards comes down to four
 * prefixes, so to one refetch of each query on screen.
 */
export function mergeKeys(prefixes: Iterable<QueryKeyPrefix>): QueryKeyPrefix[] {
  const sorted = [...prefixes].sort((a, b) => a.length - b.length);
  const kept: QueryKeyPrefix[] = [];
  for (const prefix of sorted) {
    if (!kept.some((shorter) => startsWith(prefix, shorter))) kept.push(prefix);
  }
  return kept;
}

/**
 * Collects the prefixes of events arriving close together and hands them
 * over once, `delayMs` after the first (the timer is injected for tests).
 */
export class InvalidationBatch {
  /** By their JSON, so a burst of thousands of events holds a handful of prefixes. */
  private pending = new Map<string, QueryKeyPrefix>();
  private cancel: (() => void) | null = null;

  constructor(
    private readonly flush: (prefixes: QueryKeyPrefix[]) => void,
    private readonly schedule: (run: () => void) => () => void,
  ) {}

  add(prefixes: readonly QueryKeyPrefix[]): void {
    for (const prefix of prefixes) this.pending.set(JSON.stringify(prefix), prefix);
    this.cancel ??= this.schedule(() => this.run());
  }

  /** Hands over what is pending now (also when the stream closes). */
  run(): void {
    this.cancel?.();
    this.cancel = null;
    const merged = mergeKeys(this.pending.values());
    this.pending.clear();
    if (merged.length > 0) this.flush(merged);
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending.clear();
  }
}
