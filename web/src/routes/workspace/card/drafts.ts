import type { BlockDocument } from '../../../editor/document.js';

/** What a person typed in a card and the server has not accepted yet. */
export interface Draft {
  title?: string;
  blocks?: BlockDocument;
}

/** Where the storage lives (localStorage in the app; a Map in tests). */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const keyOf = (itemId: string) => `sparrow:card-draft:${itemId}`;

function isDraft(value: unknown): value is Draft {
  if (typeof value !== 'object' || value === null) return false;
  if ('title' in value && typeof value.title !== 'string') return false;
  if ('blocks' in value && (typeof value.blocks !== 'object' || value.blocks === null))
    return false;
  return true;
}

export function readDraft(storage: DraftStorage, itemId: string): Draft {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(keyOf(itemId)) ?? '{}');
    return isDraft(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function writeDraft(storage: DraftStorage, itemId: string, draft: Draft): void {
  if (draft.title === undefined && draft.blocks === undefined) storage.removeItem(keyOf(itemId));
  else storage.setItem(keyOf(itemId), JSON.stringify(draft));
}

/**
 * The draft once the server accepted `sent`: a part is dropped only when it
 * still holds what was sent, so what was typed during the save stays.
 */
export function afterSave(draft: Draft, sent: Draft): Draft {
  const next: Draft = { ...draft };
  if (sent.title !== undefined && next.title === sent.title) delete next.title;
  if (sent.blocks !== undefined && JSON.stringify(next.blocks) === JSON.stringify(sent.blocks)) {
    delete next.blocks;
  }
  return next;
}

/** The draft without the parts the server already holds (nothing left to save for them). */
export function withoutSaved(
  draft: Draft,
  server: { title: string; blocks: BlockDocument },
): Draft {
  return afterSave(draft, { title: server.title, blocks: server.blocks });
}
