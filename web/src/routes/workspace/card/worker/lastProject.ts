const KEY = 'sparrow.card-worker.project';

/** Where a choice is kept between visits (localStorage in the app). */
type Store = Pick<Storage, 'getItem' | 'setItem'>;

export interface ProjectChoice {
  orgId: string;
  projectId: string;
}

/** The organization and project a worker was last opened from, on this browser. */
export function lastProject(store: Store = localStorage): ProjectChoice | undefined {
  try {
    const value: unknown = JSON.parse(store.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return undefined;
    if (!('orgId' in value) || !('projectId' in value)) return undefined;
    const { orgId, projectId } = value;
    return typeof orgId === 'string' && typeof projectId === 'string'
      ? { orgId, projectId }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the choice a worker was opened from, so the next card starts there. */
export function rememberProject(choice: ProjectChoice, store: Store = localStorage): void {
  try {
    store.setItem(KEY, JSON.stringify(choice));
  } catch {
    // A full or closed storage only loses the convenience.
  }
}
