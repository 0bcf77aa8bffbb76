import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { type ItemDetail, updateItem } from '../../../api/items.js';
import { keys } from '../../../api/keys.js';
import type { Block, BlockDocument } from '../../../editor/document.js';
import { afterSave, type Draft, readDraft, withoutSaved, writeDraft } from './drafts.js';

/** How long typing pauses before the draft is sent. */
const DEBOUNCE_MS = 600;
/** How long after a failed save it is tried again on its own. */
const RETRY_MS = 5000;

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'pending' }
  | { kind: 'failed'; message: string };

/**
 * The title and body drafts of a card: kept in localStorage at every
 * keystroke, sent after a pause in typing, dropped once the server has
 * them. A refusal or a lost connection keeps the draft (and says so); it is
 * sent again when the browser is back online, at the next keystroke, or by
 * `retry`. Typing never waits for a save.
 */
export function useDraftSaver(workspaceId: string, cacheKey: string, item: ItemDetail) {
  const client = useQueryClient();
  const draft = useRef<Draft>(withoutSaved(readDraft(localStorage, item.id), item));
  const [state, setState] = useState<SaveState>(
    draft.current.title === undefined && draft.current.blocks === undefined
      ? { kind: 'saved' }
      : { kind: 'pending' },
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The server's body as last rendered, for an append made after an await (see appendBlocks).
  const serverBlocks = useRef(item.blocks);
  serverBlocks.current = item.blocks;
  const inFlight = useRef(false);

  const save = useCallback(async () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const sent: Draft = { ...draft.current };
    if (sent.title === undefined && sent.blocks === undefined) return;
    if (inFlight.current) {
      timer.current = setTimeout(() => void save(), DEBOUNCE_MS);
      return;
    }
    inFlight.current = true;
    setState({ kind: 'pending' });
    try {
      const saved = await updateItem(workspaceId, item.id, sent);
      client.setQueryData(keys.item(workspaceId, cacheKey), saved);
      draft.current = afterSave(draft.current, sent);
      writeDraft(localStorage, item.id, draft.current);
      const left = draft.current.title !== undefined || draft.current.blocks !== undefined;
      setState(left ? { kind: 'pending' } : { kind: 'saved' });
      if (sent.title !== undefined) {
        void client.invalidateQueries({ queryKey: keys.inWorkspace(workspaceId, 'items') });
      }
    } catch (error) {
      setState({ kind: 'failed', message: refusalOf(error).message });
      // Tried again a little later too: the browser's `online` event can come before the network works.
      timer.current = setTimeout(() => void save(), RETRY_MS);
    } finally {
      inFlight.current = false;
    }
  }, [client, workspaceId, cacheKey, item.id]);

  const change = useCallback(
    (part: Draft) => {
      draft.current = { ...draft.current, ...part };
      writeDraft(localStorage, item.id, draft.current);
      setState((previous) => (previous.kind === 'failed' ? previous : { kind: 'pending' }));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), DEBOUNCE_MS);
    },
    [item.id, save],
  );

  useEffect(() => {
    // A draft left from an earlier visit (or a failed save) is sent again now.
    if (draft.current.title !== undefined || draft.current.blocks !== undefined) void save();
    const online = () => void save();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      // Closing the card sends what is still waiting; the draft stays until it lands.
      if (timer.current !== undefined) void save();
    };
  }, [save]);

  return {
    state,
    /** The title to show: the draft's, else the server's. */
    title: draft.current.title ?? item.title,
    /** The body to open the editor with: the draft's, else the server's. */
    blocks: draft.current.blocks ?? item.blocks,
    hasTitleDraft: draft.current.title !== undefined,
    setTitle: (title: string) => change({ title }),
    setBlocks: (blocks: BlockDocument) => change({ blocks }),
    /**
     * Blocks added at the end of the body as if typed there: on top of the
     * draft (what is being typed) or the server's body, saved like typing.
     * The editor shows them only while it is not focused: callers move focus
     * out of it first (the card's worker dialog does).
     */
    appendBlocks: (blocks: Block[]) =>
      change({
        blocks: { blocks: [...(draft.current.blocks ?? serverBlocks.current).blocks, ...blocks] },
      }),
    retry: () => void save(),
  };
}
