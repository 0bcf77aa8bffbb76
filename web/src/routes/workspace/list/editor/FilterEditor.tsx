import { useEffect, useId, useState } from 'react';
import { ConditionRow } from './ConditionRow.js';
import type { Registry } from './choices.js';
import { type EditableDefinition, isGroup } from './definition.js';
import {
  addCondition,
  addGroup,
  changeCondition,
  changeGroupJoin,
  removeCondition,
  removeEntry,
} from './filter.js';
import { GroupEditor } from './GroupEditor.js';
import { CONTROL, QUIET } from './styles.js';

interface FilterEditorProps {
  state: EditableDefinition;
  registry: Registry;
  onChange: (next: EditableDefinition) => void;
}

const NEW_TARGET = { attribute: 'title' } as const;

/**
 * The filter: conditions and groups of conditions under the top join. Focus
 * follows the person's step: to a condition or group just added, and to the
 * "add" button nearest to what was just removed.
 */
export function FilterEditor({ state, registry, onChange }: FilterEditorProps) {
  const base = useId();
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  const conditionId = (entry: number, index?: number) =>
    `${base}-condition-${entry}${index === undefined ? '' : `-${index}`}`;
  const addId = (group?: number) => `${base}-add-${group ?? 'top'}`;
  const addGroupId = `${base}-add-group`;
  const update = (next: EditableDefinition, focus: string) => {
    onChange(next);
    setFocusId(focus);
  };
  const { fields } = registry;
  const last = state.entries.length;
  // Top-level conditions and groups are numbered apart: "condition 2", "Group 1".
  let conditions = 0;
  let groups = 0;
  const numbers = state.entries.map((entry) => (isGroup(entry) ? ++groups : ++conditions));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold">Filter</legend>
      {state.entries.length > 1 ? (
        <label className="flex items-center gap-2 text-sm">
          Cards matching
          <select
            value={state.join}
            onChange={(event) =>
              onChange({ ...state, join: event.target.value === 'or' ? 'or' : 'and' })
            }
            className={CONTROL}
          >
            <option value="and">all conditions</option>
            <option value="or">any condition</option>
          </select>
        </label>
      ) : null}
      <ol className="flex flex-col gap-2">
        {state.entries.map((entry, index) => {
          const number = numbers[index] ?? index + 1;
          // Entries have no id of their own; their place is theirs while the editor is open.
          return isGroup(entry) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>
              <GroupEditor
                group={entry}
                number={number}
                registry={registry}
                conditionId={(at) => conditionId(index, at)}
                addId={addId(index)}
                onJoin={(join) => onChange(changeGroupJoin(state, index, join))}
                onAddCondition={() =>
                  update(
                    addCondition(state, NEW_TARGET, fields, index),
                    conditionId(index, entry.conditions.length),
                  )
                }
                onChangeCondition={(at, change) =>
                  onChange(changeCondition(state, [index, at], change, fields))
                }
                onRemoveCondition={(at) =>
                  update(removeCondition(state, [index, at]), addId(index))
                }
                onRemove={() => update(removeEntry(state, index), addGroupId)}
              />
            </li>
          ) : (
            <ConditionRow
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              condition={entry}
              name={`condition ${number}`}
              controlId={conditionId(index)}
              registry={registry}
              onChange={(change) => onChange(changeCondition(state, index, change, fields))}
              onRemove={() => update(removeCondition(state, index), addId())}
            />
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          id={addId()}
          className={QUIET}
          onClick={() => update(addCondition(state, NEW_TARGET, fields), conditionId(last))}
        >
          + Add condition
        </button>
        <button
          type="button"
          id={addGroupId}
          className={QUIET}
          onClick={() => update(addGroup(state, NEW_TARGET, fields), conditionId(last, 0))}
        >
          + Add group
        </button>
      </div>
    </fieldset>
  );
}
