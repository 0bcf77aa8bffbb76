import { useState } from 'react';
import { FIELD_TYPE_LABELS, type Field, hasOptions } from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { AddOption } from './AddOption.js';
import { DeleteField } from './DeleteField.js';
import { OptionChip } from './OptionColor.js';
import { RenameField } from './RenameField.js';

interface FieldRowProps {
  workspaceId: string;
  field: Field;
  /** Whether the person may change the registry (admin or above). */
  canEdit: boolean;
}

/** A field of the registry: name, type, key, options; rename, add an option, delete. */
export function FieldRow({ workspaceId, field, canEdit }: FieldRowProps) {
  const [renaming, setRenaming] = useState(false);
  const options = field.config.options ?? [];
  return (
    <li className="flex flex-col gap-3 px-4 py-4" aria-label={field.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {renaming ? (
          <RenameField workspaceId={workspaceId} field={field} onDone={() => setRenaming(false)} />
        ) : (
          <h3 className="flex flex-wrap items-baseline gap-2">
            <span className="font-medium">{field.name}</span>
            <span className="text-sm text-zinc-600 dark:text-zinc-400">
              {FIELD_TYPE_LABELS[field.type]} · <code>{field.key}</code>
            </span>
          </h3>
        )}
        {canEdit && !renaming ? (
          <div className="flex gap-2">
            <Button
              variant="quiet"
              className="px-3 py-1"
              aria-label={`Rename ${field.name}`}
              onClick={() => setRenaming(true)}
            >
              Rename
            </Button>
            <DeleteField workspaceId={workspaceId} field={field} />
          </div>
        ) : null}
      </div>
      {hasOptions(field.type) ? (
        <>
          <ul aria-label={`Options of ${field.name}`} className="flex flex-wrap gap-2">
            {options.map((option) => (
              <li key={option.id}>
                <OptionChip label={option.label} color={option.color} />
              </li>
            ))}
            {options.length === 0 ? (
              <li className="text-sm text-zinc-600 dark:text-zinc-400">No option yet.</li>
            ) : null}
          </ul>
          {canEdit ? <AddOption workspaceId={workspaceId} field={field} /> : null}
        </>
      ) : null}
    </li>
  );
}
