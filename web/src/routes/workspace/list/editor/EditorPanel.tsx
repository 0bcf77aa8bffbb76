import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ViewDefinition } from '../../../../api/lists.js';
import { fieldsQuery, membersQuery, statusesQuery } from '../../../../api/registry.js';
import { Button } from '../../../../components/Button.js';
import { DefinitionEditor } from './DefinitionEditor.js';
import { conditionsOf, fromDefinition } from './definition.js';

/** The "Filter and sort" button and, when open, the editor under the toolbar. */
export function EditorPanel({
  workspaceId,
  definition,
  onChange,
}: {
  workspaceId: string;
  definition: ViewDefinition;
  onChange: (definition: ViewDefinition) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const fields = useQuery(fieldsQuery(workspaceId));
  const statuses = useQuery(statusesQuery(workspaceId));
  const members = useQuery(membersQuery(workspaceId));
  const parsed = fromDefinition(definition);
  const count =
    parsed === undefined
      ? 0
      : conditionsOf(parsed).length + parsed.sort.length + (parsed.groupBy ? 1 : 0);
  const registry =
    fields.data && statuses.data && members.data
      ? { fields: fields.data, statuses: statuses.data, members: members.data }
      : undefined;
  return (
    <>
      <Button
        variant="quiet"
        className="py-1"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        Filter and sort{count > 0 ? ` (${count})` : ''}
      </Button>
      {open ? (
        <section
          id={panelId}
          aria-label="Filter, sort and group"
          className="order-last w-full rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
        >
          {registry === undefined ? (
            <p className="text-sm">Loading the fields…</p>
          ) : (
            <DefinitionEditor definition={definition} registry={registry} onChange={onChange} />
          )}
        </section>
      ) : null}
    </>
  );
}
