import type { Item } from '../../../api/items.js';

/** What the picker needs of a card found by a search. */
export type Candidate = Pick<Item, 'id' | 'key' | 'title' | 'parentId' | 'collectionId'>;

/** A card offered as the parent, or shown with the reason the server would refuse it. */
export interface ParentOption {
  candidate: Candidate;
  /** Why it cannot be the parent, in words; undefined: it can. */
  refusal: string | undefined;
}

/** How many options the picker shows at most. */
export const MAX_OPTIONS = 12;

const KEY = /^[A-Za-z][A-Za-z0-9]{0,9}-[0-9]+$/;

/** Whether the text is written like a card's key (`ENG-12`, any case): looked up as such. */
export function looksLikeKey(text: string): boolean {
  return KEY.test(text.trim());
}

/**
 * Why the server would refuse the candidate as the card's parent: the card
 * itself, or one of its sub-items or their sub-items (a cycle). Deeper
 * descendants are not known here; the server's refusal shows for them.
 */
function refusalOf(
  candidate: Candidate,
  card: Pick<Item, 'id'>,
  childIds: ReadonlySet<string>,
): string | undefined {
  if (candidate.id === card.id) return 'This card itself';
  const underCard =
    childIds.has(candidate.id) ||
    candidate.parentId === card.id ||
    (candidate.parentId !== null && childIds.has(candidate.parentId));
  return underCard ? 'A sub-item of this card: it cannot be its parent' : undefined;
}

/** Lower is better: the exact key, then titles that start with the text, then the rest. */
function rankOf(candidate: Candidate, text: string): number {
  const wanted = text.trim().toLowerCase();
  if (candidate.key.toLowerCase() === wanted) return 0;
  if (candidate.title.toLowerCase().startsWith(wanted)) return 1;
  return 2;
}

/**
 * The options for a typed text: each card once, the current parent left out
 * (it is already the parent), the ones the server would refuse after the
 * others with their reason, best matches first, at most MAX_OPTIONS.
 */
export function parentOptions(
  text: string,
  found: readonly Candidate[],
  card: Pick<Item, 'id' | 'parentId'>,
  childIds: ReadonlySet<string>,
): ParentOption[] {
  const seen = new Set<string>();
  const options: (ParentOption & { rank: number; order: number })[] = [];
  for (const candidate of found) {
    if (seen.has(candidate.id) || candidate.id === card.parentId) continue;
    seen.add(candidate.id);
    const refusal = refusalOf(candidate, card, childIds);
    options.push({
      candidate,
      refusal,
      rank: (refusal === undefined ? 0 : 10) + rankOf(candidate, text),
      order: options.length,
    });
  }
  return options
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX_OPTIONS)
    .map(({ candidate, refusal }) => ({ candidate, refusal }));
}
