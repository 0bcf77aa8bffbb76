import type { Node } from '../../../../api/nodes.js';

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** The machine the agent reported, in words. */
export function capacityText(capacity: Node['capacity']): string {
  if (capacity === null) return 'Not reported yet';
  const workers =
    capacity.maxWorkers === null ? 'no worker limit' : `at most ${capacity.maxWorkers} workers`;
  return `${capacity.cpus} CPUs, ${gib(capacity.memoryBytes)} memory, ${workers}`;
}

export function engineText(engine: Node['engine']): string {
  if (engine === null) return 'Not reported yet';
  const name = [engine.name, engine.version].filter((part) => part !== null).join(' ');
  if (!engine.reachable) return `Unreachable${engine.error === null ? '' : `: ${engine.error}`}`;
  return name === '' ? 'Reachable' : name;
}
