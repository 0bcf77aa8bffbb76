import { DndContext, DragOverlay } from '@dnd-kit/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  boardQuery,
  fieldsQuery,
  groupCountsQuery,
  MAX_COLUMNS,
  statusesQuery,
} from '../../../../api/board.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import type { ViewProps } from '../props.js';
import { CARD_CLASS, CardBody } from './BoardCard.js';
import { BoardColumns } from './BoardColumns.js';
import { cardFields } from './cardFields.js';
import { boardColumns, boardDefinition, groupByFieldId, groupingOf, isSorted } from './grouping.js';
import { useBoardCommands } from './useBoardCommands.js';
import { useBoardDrag } from './useBoardDrag.js';
import { useMoveCard } from './useMoveCard.js';

/**
 * The board of a view: a column per status (or option, or value of the
 * view's grouping), each with its count and its first cards from one
 * grouped query, loading more as it scrolls; cards dragged between columns
 * and, without a sort, within one.
 */
export function BoardView(props: ViewProps) {
  const { workspaceId, collection, display, openCard } = props;
  const workspace = useWorkspace();
  const canWrite = roleAtLeast(workspace.role, 'member');
  const definition = useMemo(() => boardDefinition(props.definition), [props.definition]);
  const sorted = isSorted(definition);
  const statuses = useQuery(statusesQuery(workspaceId));
  const fields = useQuery(fieldsQuery(workspaceId));
  const groupFieldId = groupByFieldId(definition);
  const grouping =
    groupFieldId === undefined
      ? { kind: 'status' as const }
      : groupingOf(definition, fields.data ?? []);
  // Columns folded by the view (display.hiddenGroups), unless opened here, or folded here.
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const hidden = new Set(display.hiddenGroups ?? []);
  const isCollapsed = (key: string) => hidden.has(key) !== toggled.has(key);
  // By status, the columns are the statuses and the grouped query counts each open one:
  // the counts are asked for only when a column is folded (other groupings find their
  // columns in them too).
  const statusColumns =
    grouping?.kind === 'status' && statuses.data !== undefined
      ? boardColumns(grouping, statuses.data, [])
      : undefined;
  const counts = useQuery({
    ...groupCountsQuery(workspaceId, collection.id, definition),
    enabled: statusColumns === undefined || statusColumns.some((column) => isCollapsed(column.key)),
  });
  const ready =
    grouping !== undefined && (grouping.kind !== 'status' || statuses.data !== undefined);
  const countedValues = counts.data?.map((entry) => entry.value) ?? [];
  const columns = ready
    ? boardColumns(grouping, statuses.data ?? [], countedValues).slice(0, MAX_COLUMNS)
    : [];
  const openValues = columns.filter((column) => !isCollapsed(column.key)).map((c) => c.value);
  const boardOptions = boardQuery(workspaceId, collection.id, definition, openValues);
  const board = useQuery({ ...boardOptions, placeholderData: keepPreviousData });
  const countsKey = groupCountsQuery(workspaceId, collection.id, definition).queryKey;
  const cacheKeys = { board: boardOptions.queryKey, counts: countsKey };
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const move = useMoveCard({ workspaceId, ...cacheKeys }, setRefusal);
  const drag = useBoardDrag({
    board: board.data,
    columns,
    grouping,
    sorted,
    collectionId: collection.id,
    move: (next) => {
      setRefusal(undefined);
      move.mutate(next);
    },
    refuse: setRefusal,
  });
  const [composer, setComposer] = useState<{ key: string; where: 'top' | 'bottom' }>();
  const firstOpen = columns.find((column) => !isCollapsed(column.key));
  useBoardCommands(canWrite ? firstOpen : undefined, (key) => setComposer({ key, where: 'top' }));
  const shownFields = cardFields(fields.data ?? [], display.columns, groupFieldId);
  const failure = statuses.error ?? fields.error ?? board.error;
  const movable = canWrite && grouping !== undefined && grouping.kind !== 'other';
  return (
    <section aria-label="Board" className="flex min-w-0 flex-col gap-3">
      {sorted ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          This view is sorted: drag cards between columns; within a column they keep the sort’s
          order.
        </p>
      ) : null}
      {grouping === undefined && fields.data !== undefined ? (
        <FormAlert message="This view groups by a field that no longer exists." />
      ) : null}
      <FormAlert message={failure === null ? refusal : failure.message} />
      <DndContext {...drag.dndProps}>
        <BoardColumns
          workspaceId={workspaceId}
          collectionId={collection.id}
          definition={definition}
          columns={columns}
          grouping={grouping}
          board={board.data}
          counts={counts.data}
          cacheKeys={cacheKeys}
          isCollapsed={isCollapsed}
          onToggle={(key) =>
            setToggled((previous) => {
              const next = new Set(previous);
              if (!next.delete(key)) next.add(key);
              return next;
            })
          }
          overKey={drag.overKey}
          fields={shownFields}
          canWrite={canWrite}
          canDrag={movable}
          sorted={sorted}
          composer={composer}
          setComposer={setComposer}
          openCard={openCard}
          onRefusal={setRefusal}
        />
        {/* No drop animation: it flew the card back to the column it left, then the card
            showed in its new one. */}
        <DragOverlay dropAnimation={null}>
          {drag.active === undefined ? null : (
            <div className={`${CARD_CLASS} h-full shadow-lg`}>
              <CardBody item={drag.active} fields={shownFields} />
            </div>
          )}
        </DragOverlay>
      </DndContext>
    </section>
  );
}
