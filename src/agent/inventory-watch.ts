import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { Labels, listManaged } from './containers.js';
import type { Logger } from './dispatcher.js';
import type { ContainerSummary } from './protocol/schemas.js';

export interface InventoryWatch {
  stop(): void;
}

/**
 * Follows the engine's events for managed containers and reports the whole
 * inventory after each burst of changes (created, started, died, removed),
 * so the server learns of a container that stopped on its own. Reopens the
 * event stream if the engine drops it.
 */
export function watchInventory(
  docker: Docker,
  onChange: (containers: ContainerSummary[]) => void,
  log: Logger,
  debounceMs = 200,
): InventoryWatch {
  let stopped = false;
  let stream: NodeJS.ReadableStream | null = null;
  let debounce: NodeJS.Timeout | undefined;
  let reopen: NodeJS.Timeout | undefined;

  const report = () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      listManaged(docker).then(
        (containers) => {
          if (!stopped) onChange(containers);
        },
        (error: unknown) => log('warn', `inventory after an engine event failed: ${String(error)}`),
      );
    }, debounceMs);
  };

  const open = () => {
    if (stopped) return;
    docker
      .getEvents({ filters: { type: ['container'], label: [`${Labels.managed}=true`] } })
      .then((events) => {
        if (stopped) {
          if (events instanceof Readable) events.destroy();
          return;
        }
        stream = events;
        events.on('data', report);
        const again = () => {
          stream = null;
          if (stopped) return;
          reopen = setTimeout(open, 2000);
        };
        events.once('end', again);
        events.once('error', again);
      })
      .catch((error: unknown) => {
        log('warn', `engine events unavailable: ${String(error)}`);
        reopen = setTimeout(open, 5000);
      });
  };

  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(debounce);
      clearTimeout(reopen);
      if (stream instanceof Readable) stream.destroy();
    },
  };
}
