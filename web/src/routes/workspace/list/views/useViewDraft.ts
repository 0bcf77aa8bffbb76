import { useNavigate } from '@tanstack/react-router';
import type { CollectionView, ViewDefinition } from '../../../../api/lists.js';
import { sameDefinition } from '../editor/definition.js';
import type { ListSearch } from '../search.js';

export type Layout = 'table' | 'board';

/** The saved view's layout (a board shows as a board; the others as a table for now). */
export function savedLayout(view: CollectionView | undefined): Layout {
  return view?.display.layout === 'board' ? 'board' : 'table';
}

/**
 * Unsaved changes to a view live in the address (`definition`, `layout`), so
 * an edited view can be shared and reloaded. Writing what the saved view
 * already says removes the change instead of keeping an equal copy.
 */
export function useViewDraft(view: CollectionView | undefined, search: ListSearch) {
  const navigate = useNavigate({ from: '/$workspaceSlug/lists/$listId' });
  const savedDefinition: ViewDefinition = view?.definition ?? {};
  const definitionChanged =
    search.definition !== undefined && !sameDefinition(search.definition, savedDefinition);
  const layoutChanged = search.layout !== undefined && search.layout !== savedLayout(view);
  return {
    definition: definitionChanged ? (search.definition ?? savedDefinition) : savedDefinition,
    layout: search.layout ?? savedLayout(view),
    dirty: definitionChanged || layoutChanged,
    setDefinition: (definition: ViewDefinition) =>
      navigate({
        replace: true,
        search: ({ definition: _old, ...rest }) =>
          sameDefinition(definition, savedDefinition) ? rest : { ...rest, definition },
      }),
    setLayout: (layout: Layout) =>
      navigate({
        replace: true,
        search: ({ layout: _old, ...rest }) =>
          layout === savedLayout(view) ? rest : { ...rest, layout },
      }),
    discard: () => navigate({ search: ({ definition: _d, layout: _l, ...rest }) => rest }),
    showView: (viewId: string | undefined) =>
      navigate({ search: viewId === undefined ? {} : { view: viewId } }),
  };
}

export type ViewDraft = ReturnType<typeof useViewDraft>;
