import { useSuspenseQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { deleteFile, fileContentUrl, uploadFile } from '../../../api/files.js';
import { fieldsQuery, type ItemDetail, membersQuery, statusesQuery } from '../../../api/items.js';
import { roleAtLeast, useWorkspace } from '../context.js';
import { ArchivedBanner } from './ArchivedBanner.js';
import { ASSIGN_CONTROL_ID, CardActions } from './CardActions.js';
import { CardTitle } from './CardTitle.js';
import { FieldRow } from './fields/FieldRow.js';
import { ListsField } from './ListsField.js';
import { ParentField } from './ParentField.js';
import { SaveStatus } from './SaveStatus.js';
import { StatusSelect } from './StatusSelect.js';
import { SubItems } from './SubItems.js';
import { useDraftSaver } from './useDraftSaver.js';
import { useItemUpdate } from './useItemUpdate.js';
import { CardWorkers } from './worker/CardWorkers.js';

// The editor is the app's largest piece: loaded when a card is first opened.
const BlockEditor = lazy(() =>
  import('../../../editor/BlockEditor.js').then((module) => ({ default: module.BlockEditor })),
);

const TYPED = new Set(['text', 'number', 'url', 'email']);

export interface CardViewProps {
  item: ItemDetail;
  /** The key the card was opened by (its cache entry). */
  cacheKey: string;
  openCard: (key: string) => void;
  onDeleted: () => void;
  /** The close button of the panel; none on the card's own page. */
  closeButton?: ReactNode;
}

/** A card: title, status, properties, lists, parent, body and sub-items, all editable in place. */
export function CardView({ item, cacheKey, openCard, onDeleted, closeButton }: CardViewProps) {
  const workspace = useWorkspace();
  const canWrite = roleAtLeast(workspace.role, 'member');
  const fields = useSuspenseQuery(fieldsQuery(workspace.id)).data;
  const statuses = useSuspenseQuery(statusesQuery(workspace.id)).data;
  const members = useSuspenseQuery(membersQuery(workspace.id)).data;
  const drafts = useDraftSaver(workspace.id, cacheKey, item);
  const [title, setTitle] = useState(drafts.title);
  const { hasTitleDraft } = drafts;
  // A title changed elsewhere shows here, unless the person has one of their own waiting.
  useEffect(() => {
    if (!hasTitleDraft) setTitle(item.title);
  }, [item.title, hasTitleDraft]);
  const update = useItemUpdate(workspace.id, cacheKey, item.id);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [announcement, setAnnouncement] = useState('');
  const change = (name: string, patch: Parameters<typeof update.mutate>[0]) => {
    setErrors(({ [name]: _cleared, ...rest }) => rest);
    update.mutate(patch, {
      onError: (error) =>
        setErrors((previous) => ({ ...previous, [name]: refusalOf(error).message })),
    });
  };
  const firstPeople = fields.find(
    (field) => field.type === 'person' || field.type === 'multi_person',
  );
  const editable = canWrite && !item.archived;
  return (
    <article aria-label={`Card ${item.key}`} className="flex flex-col gap-3">
      <header className="flex items-center gap-2">
        <span className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{item.key}</span>
        <div className="flex-1">
          <SaveStatus state={drafts.state} onRetry={drafts.retry} />
        </div>
        <CardActions
          workspaceId={workspace.id}
          workspaceSlug={workspace.slug}
          item={item}
          canWrite={canWrite}
          setArchived={(archived) => change('archived', { patch: { archived } })}
          openCard={openCard}
          onDeleted={onDeleted}
          announce={setAnnouncement}
        />
        {closeButton}
      </header>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {item.archived ? (
        <ArchivedBanner
          canWrite={canWrite}
          onRestore={() => change('archived', { patch: { archived: false } })}
        />
      ) : null}
      <CardTitle
        value={title}
        disabled={!editable}
        onChange={(next) => {
          setTitle(next);
          drafts.setTitle(next);
        }}
      />
      <section aria-label="Properties" className="flex flex-col">
        <StatusSelect
          statuses={statuses}
          value={item.statusId}
          disabled={!editable}
          onChange={(statusId) => change('statusId', { patch: { statusId } })}
        />
        {errors.statusId === undefined ? null : (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {errors.statusId}
          </p>
        )}
        {fields.map((field) => (
          <FieldRow
            key={field.id}
            controlId={field.id === firstPeople?.id ? ASSIGN_CONTROL_ID : undefined}
            workspaceId={workspace.id}
            field={field}
            value={item.properties[field.key]}
            members={members}
            disabled={!editable}
            canAddOptions={roleAtLeast(workspace.role, 'admin')}
            error={errors[field.key]}
            onChange={(value) =>
              change(field.key, {
                patch: { properties: { [field.key]: value } },
                optimistic: !TYPED.has(field.type),
              })
            }
          />
        ))}
        <ListsField
          workspaceId={workspace.id}
          cacheKey={cacheKey}
          item={item}
          disabled={!editable}
        />
        <ParentField
          workspaceId={workspace.id}
          item={item}
          disabled={!editable}
          openCard={openCard}
          error={errors.parentId}
          onChange={(parentId) => change('parentId', { patch: { parentId } })}
        />
      </section>
      {errors.archived === undefined ? null : (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {errors.archived}
        </p>
      )}
      <section aria-label="Body" className="rounded-md border border-zinc-200 dark:border-zinc-800">
        <Suspense
          fallback={
            <p className="p-3 text-sm text-zinc-600 dark:text-zinc-400">Loading the editor…</p>
          }
        >
          <BlockEditor
            document={drafts.blocks}
            onChange={drafts.setBlocks}
            imageSrc={(fileId) => fileContentUrl(workspace.id, fileId)}
            editable={editable}
            label="Body"
            images={{
              upload: (file) => uploadFile(workspace.id, file),
              discard: (fileId) => deleteFile(workspace.id, fileId),
            }}
          />
        </Suspense>
      </section>
      <CardWorkers
        cardKey={item.key}
        cardTitle={item.title}
        blocks={drafts.blocks}
        editable={editable}
        appendBlocks={drafts.appendBlocks}
      />
      <SubItems workspaceId={workspace.id} item={item} disabled={!editable} openCard={openCard} />
    </article>
  );
}
