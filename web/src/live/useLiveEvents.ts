import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { InvalidationBatch, isLiveEvent, keysForEvent } from './invalidations.js';

/**
 * `live`: caught up and following; `connecting`: opening or reopening (the
 * browser reconnects on its own and resends `Last-Event-ID`); `offline`: the
 * server refused the stream (the browser gives up then), tried again later.
 */
export type LiveState = 'connecting' | 'live' | 'offline';

/** Events arriving this close together refresh the cache once. */
const BATCH_MS = 80;
/** After a refusal the stream is opened again after 2 s, 4 s, ... up to 30 s. */
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30_000;

export function streamUrl(workspaceId: string, since: string | null): string {
  const url = `/workspaces/${encodeURIComponent(workspaceId)}/events/stream`;
  return since === null ? url : `${url}?since=${encodeURIComponent(since)}`;
}

/**
 * Follows the workspace's event log (Server-Sent Events, same origin, the
 * session cookie) and refreshes what each event touches in the query cache,
 * so every open screen shows changes made elsewhere without a reload.
 */
export function useLiveEvents(workspaceId: string): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    /** The last event passed, to resume from when the stream must be opened anew. */
    let lastId: string | null = null;
    const batch = new InvalidationBatch(
      (prefixes) => {
        for (const queryKey of prefixes) void client.invalidateQueries({ queryKey });
      },
      (run) => {
        const timer = setTimeout(run, BATCH_MS);
        return () => clearTimeout(timer);
      },
    );
    const remember = (message: MessageEvent) => {
      if (message.lastEventId !== '') lastId = message.lastEventId;
    };
    const open = () => {
      setState('connecting');
      const current = new EventSource(streamUrl(workspaceId, lastId));
      source = current;
      current.onmessage = (message) => {
        remember(message);
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        if (isLiveEvent(data)) batch.add(keysForEvent(workspaceId, data));
      };
      // Sent once caught up: its id is the cursor even when no event passed.
      current.addEventListener('ready', (message) => {
        if (message instanceof MessageEvent) remember(message);
        refusals = 0;
        setState('live');
      });
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) {
          setState('connecting');
          return;
        }
        // Refused (an answer, not a stream): open it again later, from the last event passed.
        setState('offline');
        refusals += 1;
        retry = setTimeout(open, Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (refusals - 1)));
      };
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
      batch.dispose();
    };
  }, [workspaceId, client]);
  return state;
}
