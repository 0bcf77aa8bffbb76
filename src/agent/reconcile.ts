import type { ReconcileResult } from './protocol/methods.js';
import type { ContainerSummary } from './protocol/schemas.js';

export interface KnownWorker {
  workerId: string;
  /** The container the server last recorded for it, if any. */
  containerId: string | null;
}

function sameContainer(id: string, ref: string): boolean {
  // The server may hold a full id or a short (12+ character) prefix of one.
  return id === ref || (ref.length >= 12 && id.startsWith(ref));
}

/**
 * Compares what the server believes (workers on this node) with what the
 * engine has (the inventory): a worker matches its recorded container, or
 * else a container labelled with its id. Workers with neither are missing;
 * managed containers no worker claimed are orphans.
 */
export function reconcile(inventory: ContainerSummary[], workers: KnownWorker[]): ReconcileResult {
  const claimed = new Set<string>();
  const present: ReconcileResult['present'] = [];
  const missing: string[] = [];
  for (const worker of workers) {
    const { containerId } = worker;
    const container =
      (containerId === null
        ? undefined
        : inventory.find((candidate) => sameContainer(candidate.id, containerId))) ??
      inventory.find((candidate) => candidate.workerId === worker.workerId);
    if (container === undefined || claimed.has(container.id)) {
      missing.push(worker.workerId);
      continue;
    }
    claimed.add(container.id);
    present.push({ workerId: worker.workerId, container });
  }
  const orphans = inventory.filter((container) => !claimed.has(container.id));
  return { present, missing, orphans };
}
