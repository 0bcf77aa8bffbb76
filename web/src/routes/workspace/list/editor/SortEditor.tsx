import type { Registry } from './choices.js';
import type { EditableDefinition } from './definition.js';
import { isSortable, kindOf, targetFromToken, targetsOf, targetToken } from './operators.js';
import { addSort, changeSort, removeSort } from './sort.js';
import { CONTROL, QUIET } from './styles.js';

/** The sort keys, in order, each ascending or descending. */
export function SortEditor({
  state,
  registry,
  onChange,
}: {
  state: EditableDefinition;
  registry: Registry;
  onChange: (next: EditableDefinition) => void;
}) {
  const sortable = targetsOf(registry.fields).filter(({ target }) =>
    isSortable(kindOf(target, registry.fields)),
  );
  const unused = sortable.find(
    ({ target }) => !state.sort.some((key) => targetToken(key.target) === targetToken(target)),
  );
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold">Sort</legend>
      <ol className="flex flex-col gap-2">
        {state.sort.map((key, index) => (
          <li key={targetToken(key.target)} className="flex flex-wrap items-center gap-2">
            <select
              aria-label={`Sort ${index + 1} by`}
              value={targetToken(key.target)}
              onChange={(event) => {
                const target = targetFromToken(event.target.value);
                if (target !== undefined) onChange(changeSort(state, index, { target }));
              }}
              className={CONTROL}
            >
              {sortable.map(({ target, label }) => (
                <option key={targetToken(target)} value={targetToken(target)}>
                  {label}
                </option>
              ))}
            </select>
            <select
              aria-label={`Sort ${index + 1} direction`}
              value={key.direction}
              onChange={(event) =>
                onChange(
                  changeSort(state, index, {
                    direction: event.target.value === 'desc' ? 'desc' : 'asc',
                  }),
                )
              }
              className={CONTROL}
            >
              <option value="asc">ascending</option>
              <option value="desc">descending</option>
            </select>
            <button
              type="button"
              aria-label={`Remove sort ${index + 1}`}
              onClick={() => onChange(removeSort(state, index))}
              className={QUIET}
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      {unused === undefined ? null : (
        <button
          type="button"
          className={`${QUIET} self-start`}
          onClick={() => onChange(addSort(state, unused.target))}
        >
          + Add sort
        </button>
      )}
    </fieldset>
  );
}
