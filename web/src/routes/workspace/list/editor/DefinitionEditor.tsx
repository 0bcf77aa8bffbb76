import { useEffect, useState } from 'react';
import type { ViewDefinition } from '../../../../api/lists.js';
import type { Registry } from './choices.js';
import {
  type EditableDefinition,
  fromDefinition,
  sameDefinition,
  toDefinition,
} from './definition.js';
import { FilterEditor } from './FilterEditor.js';
import { isGroupable, kindOf, targetFromToken, targetsOf, targetToken } from './operators.js';
import { SortEditor } from './SortEditor.js';
import { CONTROL } from './styles.js';

interface DefinitionEditorProps {
  /** The definition in effect (saved, or edited in the address). */
  definition: ViewDefinition;
  registry: Registry;
  /** Writes an edited definition (into the address, as an unsaved change). */
  onChange: (definition: ViewDefinition) => void;
}

/**
 * The filter, sort and grouping of a view. The editor keeps conditions still
 * being filled in (no value yet) to itself; what is complete goes into the
 * address at each change, so the table follows as the person types.
 */
export function DefinitionEditor({ definition, registry, onChange }: DefinitionEditorProps) {
  const [state, setState] = useState<EditableDefinition | undefined>(() =>
    fromDefinition(definition),
  );
  // A definition changed from outside (discarded, another view): start again from it.
  useEffect(() => {
    setState((current) =>
      current !== undefined && sameDefinition(toDefinition(current, registry.fields), definition)
        ? current
        : fromDefinition(definition),
    );
  }, [definition, registry.fields]);
  if (state === undefined) {
    return (
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        This view’s filter has more than the editor shows (groups within groups, a “not”, or a
        search); it applies as saved.
      </p>
    );
  }
  const update = (next: EditableDefinition) => {
    setState(next);
    onChange(toDefinition(next, registry.fields));
  };
  const targets = targetsOf(registry.fields);
  const groupable = targets.filter(({ target }) => isGroupable(kindOf(target, registry.fields)));
  return (
    <div className="flex flex-col gap-4">
      <FilterEditor state={state} registry={registry} onChange={update} />
      <SortEditor state={state} registry={registry} onChange={update} />
      <label className="flex items-center gap-2 text-sm font-semibold">
        Group by
        <select
          value={state.groupBy === null ? '' : targetToken(state.groupBy)}
          onChange={(event) =>
            update({ ...state, groupBy: targetFromToken(event.target.value) ?? null })
          }
          className={`${CONTROL} font-normal`}
        >
          <option value="">No grouping</option>
          {groupable.map(({ target, label }) => (
            <option key={targetToken(target)} value={targetToken(target)}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
