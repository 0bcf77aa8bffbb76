import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import {
  collectionsQuery,
  useCreateView,
  useUpdateView,
  type ViewDisplay,
  viewsQuery,
} from '../../../api/lists.js';
import { fieldsQuery } from '../../../api/registry.js';
import { Button } from '../../../components/Button.js';
import { CardPanel } from '../card/CardPanel.js';
import { roleAtLeast, useWorkspace } from '../context.js';
import { NameDialog } from '../sidebar/NameDialog.js';
import { BoardView } from './board/BoardView.js';
import { BulkEditButton } from './bulk/BulkEditButton.js';
import { EditorPanel } from './editor/EditorPanel.js';
import type { ViewProps } from './props.js';
import { columnChoices } from './table/columns.js';
import { TableView } from './table/TableView.js';
import { ColumnsDialog } from './views/ColumnsDialog.js';
import { LayoutSwitch } from './views/LayoutSwitch.js';
import { UnsavedBar } from './views/UnsavedBar.js';
import { useViewDraft } from './views/useViewDraft.js';
import { ViewTabs } from './views/ViewTabs.js';

const FROM = '/signed-in/$workspaceSlug/lists/$listId';

/**
 * A list: its saved views as tabs, the filter, sort and grouping editor, the
 * table or board of the view in effect (saved, or edited in the address as
 * unsaved changes), the bulk edit of its selection, and the open card.
 */
export function ListScreen() {
  const workspace = useWorkspace();
  const { listId } = useParams({ from: FROM });
  const search = useSearch({ from: FROM });
  const navigate = useNavigate({ from: '/$workspaceSlug/lists/$listId' });
  const collections = useSuspenseQuery(collectionsQuery(workspace.id));
  const views = useSuspenseQuery(viewsQuery(workspace.id, listId));
  const fields = useQuery(fieldsQuery(workspace.id));
  const path = { workspaceId: workspace.id, collectionId: listId };
  const createView = useCreateView(path);
  const updateView = useUpdateView(path);
  const [dialog, setDialog] = useState<'new-view' | 'columns' | undefined>();
  const collection = collections.data.find((candidate) => candidate.id === listId);
  const view = views.data.find((candidate) => candidate.id === search.view) ?? views.data[0];
  const draft = useViewDraft(view, search);
  if (collection === undefined) {
    return <h1 className="text-xl font-semibold">This list does not exist</h1>;
  }
  const canSave = roleAtLeast(workspace.role, 'member');
  const display: ViewDisplay = { ...view?.display, layout: draft.layout };
  const props: ViewProps = {
    workspaceId: workspace.id,
    collection,
    view,
    definition: draft.definition,
    display,
    openCard: (cardKey) => navigate({ search: (previous) => ({ ...previous, card: cardKey }) }),
  };
  const saveDraft = () =>
    view === undefined
      ? undefined
      : updateView.mutate(
          { id: view.id, definition: draft.definition, display },
          { onSuccess: () => navigate({ search: { view: view.id } }) },
        );
  const saveAsNew = async (name: string) => {
    const created = await createView.mutateAsync({ name, definition: draft.definition, display });
    await navigate({ search: { view: created.id } });
  };
  // Without a saved view, picked columns are saved as the list's first view.
  const saveColumns = (columns: NonNullable<ViewDisplay['columns']>) =>
    view === undefined
      ? createView.mutateAsync({
          name: 'All cards',
          definition: draft.definition,
          display: { ...display, columns },
        })
      : updateView.mutateAsync({ id: view.id, display: { ...view.display, columns } });
  return (
    <div className="flex min-h-0 gap-4">
      <section aria-labelledby="list-title" className="flex min-w-0 flex-1 flex-col gap-3">
        <h1 id="list-title" className="text-xl font-semibold">
          {collection.name}
        </h1>
        <ViewTabs
          workspaceId={workspace.id}
          workspaceSlug={workspace.slug}
          collectionId={listId}
          views={views.data}
          current={view}
          canEdit={canSave}
          onNewView={() => setDialog('new-view')}
          onDeleted={() => draft.showView(undefined)}
        />
        <div className="flex flex-wrap items-center gap-2">
          <LayoutSwitch layout={draft.layout} onChange={draft.setLayout} />
          <EditorPanel
            workspaceId={workspace.id}
            definition={draft.definition}
            onChange={draft.setDefinition}
          />
          {draft.layout === 'table' && canSave ? (
            <Button variant="quiet" className="py-1" onClick={() => setDialog('columns')}>
              Columns
            </Button>
          ) : null}
          {canSave ? (
            <BulkEditButton
              workspaceId={workspace.id}
              workspaceSlug={workspace.slug}
              collectionId={listId}
              definition={draft.definition}
            />
          ) : null}
        </div>
        {draft.dirty ? (
          <UnsavedBar
            hasView={view !== undefined}
            canSave={canSave}
            saving={updateView.isPending || createView.isPending}
            error={updateView.error}
            onSave={saveDraft}
            onSaveAsNew={() => setDialog('new-view')}
            onDiscard={draft.discard}
          />
        ) : null}
        {draft.layout === 'board' ? <BoardView {...props} /> : <TableView {...props} />}
      </section>
      {search.card === undefined ? null : (
        <CardPanel
          cardKey={search.card}
          onClose={() => navigate({ search: ({ card: _closed, ...rest }) => rest })}
        />
      )}
      <NameDialog
        open={dialog === 'new-view'}
        onOpenChange={(open) => setDialog(open ? 'new-view' : undefined)}
        title="Save as a new view"
        label="View name"
        submitLabel="Save view"
        onSubmit={saveAsNew}
      />
      <ColumnsDialog
        open={dialog === 'columns'}
        onOpenChange={(open) => setDialog(open ? 'columns' : undefined)}
        choices={columnChoices(display, collection, fields.data ?? [])}
        onSave={saveColumns}
      />
    </div>
  );
}
