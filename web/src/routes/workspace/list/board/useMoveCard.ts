import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type BoardData,
  type GroupCount,
  type GroupValue,
  type ItemChange,
  moveCardAfter,
  updateCard,
} from '../../../../api/board.js';
import { refusalOf } from '../../../../api/errors.js';
import { applyChange } from './grouping.js';
import { moveCard, type Place, shiftCounts, type Undo, undoMove, undoOf } from './reconcile.js';

/** A card dropped somewhere: its new column (with the change that puts it there) and place. */
export interface Move {
  itemId: string;
  cardKey: string;
  to: Place;
  toValue: GroupValue;
  fromValue: GroupValue;
  /** The new status or property; undefined when the card stays in its column. */
  change: ItemChange | undefined;
  /** Where it goes in manual order; undefined to leave its order alone (a sorted view). */
  afterItemId: string | null | undefined;
  /** The column's name, for the refusal. */
  columnName: string;
}

interface Keys {
  workspaceId: string;
  board: readonly unknown[];
  counts: readonly unknown[];
}

/**
 * Moves a card on the board at once (the cache), writes it, and on a
 * refusal puts it back where it was and says why.
 */
export function useMoveCard(keys: Keys, onRefusal: (words: string) => void) {
  const client = useQueryClient();
  const shift = (from: GroupValue, to: GroupValue) =>
    client.setQueryData<GroupCount[]>(keys.counts, (counts) =>
      counts === undefined ? counts : shiftCounts(counts, from, to),
    );
  return useMutation({
    mutationKey: ['board-move', ...keys.board],
    mutationFn: (move: Move) => {
      const { itemId, change, afterItemId } = move;
      const place = afterItemId === undefined ? {} : { afterItemId };
      if (change === undefined) return moveCardAfter(keys.workspaceId, itemId, afterItemId ?? null);
      return updateCard(keys.workspaceId, itemId, { ...change, ...place });
    },
    onMutate: async (move): Promise<{ undo: Undo | undefined }> => {
      await client.cancelQueries({ queryKey: keys.board });
      const board = client.getQueryData<BoardData>(keys.board);
      const undo = board === undefined ? undefined : undoOf(board, move.itemId);
      if (board !== undefined && undo !== undefined) {
        const moved = move.change === undefined ? undo.item : applyChange(undo.item, move.change);
        client.setQueryData<BoardData>(keys.board, moveCard(board, move.itemId, move.to, moved));
      }
      shift(move.fromValue, move.toValue);
      return { undo };
    },
    onError: (error, move, context) => {
      const undo = context?.undo;
      if (undo !== undefined) {
        client.setQueryData<BoardData>(keys.board, (board) =>
          board === undefined ? board : undoMove(board, undo),
        );
      }
      shift(move.toValue, move.fromValue);
      // The board may have scrolled while dragging: show the card where it went back to.
      requestAnimationFrame(() =>
        document
          .querySelector(`[data-card-key="${CSS.escape(move.cardKey)}"]`)
          ?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
      );
      const where = move.change === undefined ? 'be reordered' : `move to ${move.columnName}`;
      onRefusal(`${move.cardKey} could not ${where}: ${refusalOf(error).message}`);
    },
    onSettled: () => {
      // The last of quick successive moves refreshes the board, so no refetch undoes a later one.
      if (client.isMutating({ mutationKey: ['board-move', ...keys.board] }) > 1) return;
      void client.invalidateQueries({ queryKey: keys.board });
      void client.invalidateQueries({ queryKey: keys.counts });
    },
  });
}
