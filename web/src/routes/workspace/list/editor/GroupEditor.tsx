import { useId } from 'react';
import { ConditionRow } from './ConditionRow.js';
import type { Registry } from './choices.js';
import type { Condition, ConditionGroup, Join } from './definition.js';
import { CONTROL, QUIET } from './styles.js';

interface GroupEditorProps {
  group: ConditionGroup;
  /** 1-based, for its name ("Group 1") and its controls' names. */
  number: number;
  registry: Registry;
  /** The id of the first control of the condition at `index`, to move focus there. */
  conditionId: (index: number) => string;
  /** The id of the group's "add a condition" button. */
  addId: string;
  onJoin: (join: Join) => void;
  onAddCondition: () => void;
  onChangeCondition: (index: number, change: Partial<Condition>) => void;
  onRemoveCondition: (index: number) => void;
  onRemove: () => void;
}

/** A filter group: its own join and its conditions, inside the top level. */
export function GroupEditor({
  group,
  number,
  registry,
  conditionId,
  addId,
  onJoin,
  onAddCondition,
  onChangeCondition,
  onRemoveCondition,
  onRemove,
}: GroupEditorProps) {
  const nameId = useId();
  const name = `group ${number}`;
  return (
    <fieldset
      aria-labelledby={nameId}
      className="flex min-w-0 flex-col gap-2 rounded-md border border-zinc-300 bg-zinc-50 p-3 dark:border-zinc-700 dark:bg-zinc-950"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span id={nameId} className="font-semibold">
          Group {number}
        </span>
        <label className="flex items-center gap-2">
          matching
          <select
            aria-label={`Join of ${name}`}
            value={group.join}
            onChange={(event) => onJoin(event.target.value === 'or' ? 'or' : 'and')}
            className={CONTROL}
          >
            <option value="and">all of its conditions</option>
            <option value="or">any of its conditions</option>
          </select>
        </label>
        <button
          type="button"
          aria-label={`Remove ${name}`}
          onClick={onRemove}
          className={`${QUIET} ml-auto`}
        >
          Remove group
        </button>
      </div>
      {group.conditions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No conditions yet: the group is left out of the filter until one is complete.
        </p>
      ) : (
        <ol className="flex flex-col gap-2">
          {group.conditions.map((condition, index) => (
            <ConditionRow
              // Conditions have no id of their own; their place is theirs while the editor is open.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              condition={condition}
              name={`condition ${index + 1} of ${name}`}
              controlId={conditionId(index)}
              registry={registry}
              onChange={(change) => onChangeCondition(index, change)}
              onRemove={() => onRemoveCondition(index)}
            />
          ))}
        </ol>
      )}
      <button
        type="button"
        id={addId}
        aria-label={`Add condition to ${name}`}
        className={`${QUIET} self-start`}
        onClick={onAddCondition}
      >
        + Add condition
      </button>
    </fieldset>
  );
}
