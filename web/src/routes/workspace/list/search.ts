/**
 * What of a list's screen lives in its address, so that every screen can be
 * shared and reloaded: the saved view shown, unsaved changes to its
 * definition or layout, and the card open in the side panel.
 */
export interface ListSearch {
  /** The saved view (its id); none: the list's first view, or the default table. */
  view?: string;
  /** The card open in the side panel, by its key (`ENG-12`). */
  card?: string;
  /** An edited definition not saved yet (a ViewDefinition as JSON). */
  definition?: Record<string, unknown>;
  /** An edited layout not saved yet. */
  layout?: 'table' | 'board';
}

export function listSearch(search: Record<string, unknown>): ListSearch {
  const result: ListSearch = {};
  if (typeof search.view === 'string') result.view = search.view;
  if (typeof search.card === 'string') result.card = search.card;
  if (typeof search.definition === 'object' && search.definition !== null) {
    result.definition = search.definition as Record<string, unknown>;
  }
  if (search.layout === 'table' || search.layout === 'board') result.layout = search.layout;
  return result;
}
