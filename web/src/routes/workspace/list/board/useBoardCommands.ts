import { useCommands } from '../../../../commands/registry.js';
import type { BoardColumn } from './grouping.js';

/** The board's actions in the command palette: a new card in the first open column. */
export function useBoardCommands(
  first: BoardColumn | undefined,
  openComposer: (columnKey: string) => void,
): void {
  useCommands(
    first === undefined
      ? []
      : [
          {
            id: 'board.create-card',
            label: `New card in ${first.name}`,
            group: 'Card',
            shortcut: 'c',
            keywords: ['create', 'add', 'board'],
            run: () => openComposer(first.key),
          },
        ],
  );
}
