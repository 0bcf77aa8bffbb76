import type {
  Collection,
  CollectionView,
  ViewDefinition,
  ViewDisplay,
} from '../../../api/lists.js';

/**
 * What the list screen hands its table or board: the list, the saved view
 * shown (if any), and the definition and display in effect (the saved
 * view's, or unsaved edits from the address).
 */
export interface ViewProps {
  workspaceId: string;
  collection: Collection;
  view: CollectionView | undefined;
  definition: ViewDefinition;
  display: ViewDisplay;
  /** Opens a card in the side panel (its key in the address). */
  openCard: (cardKey: string) => void;
}
