import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { type BulkPreview, useBulkPreview, useBulkUpdate } from '../../../../api/bulk.js';
import { ApiError } from '../../../../api/client.js';
import { refusalOf } from '../../../../api/errors.js';
import type { ViewDefinition } from '../../../../api/lists.js';
import { Button } from '../../../../components/Button.js';
import { Dialog } from '../../../../components/Dialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { CONTROL } from '../editor/styles.js';
import { type BulkChange, countOfMismatch } from './changes.js';

interface BulkEditProps {
  workspaceId: string;
  workspaceSlug: string;
  collectionId: string;
  definition: ViewDefinition;
  changes: readonly BulkChange[];
  onDone: () => void;
}

const number = (count: number) => count.toLocaleString('en-US');

/**
 * Changes every card the view selects: pick a change, see how many cards it
 * touches (bulk-preview), confirm (above 200 by typing the count), apply
 * (bulk-update with that count, so a selection that changed meanwhile is
 * refused and shown, never changed blindly).
 */
export function BulkEditForm({
  workspaceId,
  workspaceSlug,
  collectionId,
  definition,
  changes,
  onDone,
}: BulkEditProps) {
  const [changeId, setChangeId] = useState(changes[0]?.id ?? '');
  const change = changes.find((candidate) => candidate.id === changeId);
  const [value, setValue] = useState(change?.values[0]?.value ?? '');
  const [preview, setPreview] = useState<BulkPreview | undefined>();
  const [stale, setStale] = useState<{ was: number } | undefined>();
  const [typed, setTyped] = useState('');
  const previewing = useBulkPreview(workspaceId, collectionId);
  const runPreview = () =>
    previewing.mutate(definition, {
      onSuccess: (answer) => {
        setPreview(answer);
        setStale(undefined);
        setTyped('');
      },
    });
  const update = useBulkUpdate(workspaceId, collectionId);
  const pick = (id: string) => {
    setChangeId(id);
    setValue(changes.find((candidate) => candidate.id === id)?.values[0]?.value ?? '');
    setPreview(undefined);
    update.reset();
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (change === undefined || preview === undefined) return;
    update.mutate(
      { definition, patch: change.patch(value), expectedCount: preview.count },
      {
        onError: (error) => {
          const count = error instanceof ApiError ? countOfMismatch(error.details) : undefined;
          if (
            error instanceof ApiError &&
            error.code === 'expected_count_mismatch' &&
            count !== undefined
          ) {
            setStale({ was: preview.count });
            setPreview({ ...preview, count });
            setTyped('');
          }
        },
      },
    );
  };

  if (update.data !== undefined) {
    return (
      <div className="flex flex-col gap-4">
        <p role="status">
          Changed {number(update.data.changed)} {update.data.changed === 1 ? 'card' : 'cards'}.
        </p>
        <Link
          to="/$workspaceSlug/activity"
          params={{ workspaceSlug }}
          search={{ batch: update.data.batchId }}
          className="self-start text-sm text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
        >
          See this change in the activity
        </Link>
        <Button onClick={onDone} className="self-end">
          Done
        </Button>
      </div>
    );
  }

  const tooMany = preview !== undefined && preview.count > preview.max;
  const needsTyping = preview !== undefined && preview.count > preview.confirmAbove;
  const ready =
    preview !== undefined &&
    preview.count > 0 &&
    !tooMany &&
    (!needsTyping || typed === String(preview.count));
  const refusal =
    update.error !== null && stale === undefined ? refusalOf(update.error).message : undefined;
  return (
    <form onSubmit={apply} className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Change
          <select
            value={changeId}
            onChange={(event) => pick(event.target.value)}
            className={CONTROL}
          >
            {changes.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          To
          <select
            value={value}
            onChange={(event) => setValue(event.target.value)}
            className={CONTROL}
          >
            {(change?.values ?? []).map((candidate) => (
              <option key={candidate.value} value={candidate.value}>
                {candidate.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {preview === undefined ? (
        <Button
          variant="quiet"
          onClick={runPreview}
          disabled={previewing.isPending}
          className="self-start"
        >
          Preview
        </Button>
      ) : null}
      <FormAlert
        message={previewing.error === null ? undefined : refusalOf(previewing.error).message}
      />
      {stale === undefined || preview === undefined ? null : (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          The selection changed since the preview: {number(preview.count)} cards match now, not{' '}
          {number(stale.was)}. Nothing was changed. Check the new count and confirm again.
        </p>
      )}
      {preview === undefined ? null : tooMany ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {number(preview.count)} cards match. A bulk edit changes at most {number(preview.max)}{' '}
          cards at once: narrow the filter first.
        </p>
      ) : preview.count === 0 ? (
        <p role="status" className="text-sm">
          No cards match this view: nothing to change.
        </p>
      ) : (
        <p role="status" className="text-sm">
          This changes {number(preview.count)} {preview.count === 1 ? 'card' : 'cards'}.
        </p>
      )}
      {needsTyping && !tooMany && preview !== undefined ? (
        <TextField
          label={`Type ${preview.count} to confirm`}
          value={typed}
          inputMode="numeric"
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value.trim())}
        />
      ) : null}
      <FormAlert message={refusal} />
      <div className="flex justify-end gap-2">
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
        {preview === undefined || tooMany || preview.count === 0 ? null : (
          <Button type="submit" disabled={!ready || update.isPending}>
            {stale === undefined ? 'Apply' : 'Retry'} to {number(preview.count)}{' '}
            {preview.count === 1 ? 'card' : 'cards'}
          </Button>
        )}
      </div>
    </form>
  );
}

/** The dialog around the bulk edit form. */
export function BulkEditDialog({
  open,
  onOpenChange,
  count,
  ...props
}: Omit<BulkEditProps, 'onDone'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  count: number;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit all matching cards"
      description={`One change to every card this view selects (${number(count)} when last counted), in one step.`}
    >
      {open ? <BulkEditForm {...props} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}
