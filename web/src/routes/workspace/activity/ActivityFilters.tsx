import { useId } from 'react';
import { EVENT_TYPES, isEventType } from '../../../api/events.js';
import { Button } from '../../../components/Button.js';
import { typeLabel } from './describe.js';
import type { ActivitySearch } from './search.js';

interface ActivityFiltersProps {
  search: ActivitySearch;
  onChange: (next: ActivitySearch) => void;
}

const SELECT =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/** The feed's filters; each change is a new address (so Back undoes it). */
export function ActivityFilters({ search, onChange }: ActivityFiltersProps) {
  const id = useId();
  const without = (key: keyof ActivitySearch): ActivitySearch => {
    const { [key]: _dropped, ...rest } = search;
    return rest;
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-type`} className="text-sm font-medium">
          Type
        </label>
        <select
          id={`${id}-type`}
          className={SELECT}
          value={search.type ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            onChange(isEventType(value) ? { ...search, type: value } : without('type'));
          }}
        >
          <option value="">Every type</option>
          {EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {typeLabel(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-cause`} className="text-sm font-medium">
          Cause
        </label>
        <select
          id={`${id}-cause`}
          className={SELECT}
          value={search.cause ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            onChange(
              value === 'edit' || value === 'import'
                ? { ...search, cause: value }
                : without('cause'),
            );
          }}
        >
          <option value="">Edits and imports</option>
          <option value="edit">Edits</option>
          <option value="import">Imports</option>
        </select>
      </div>
      {search.batch === undefined ? null : (
        <p className="flex items-center gap-2 rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-800">
          <span>
            Batch <code className="text-xs">{search.batch}</code>
          </span>
          <Button variant="quiet" className="px-2 py-1" onClick={() => onChange(without('batch'))}>
            Show every batch
          </Button>
        </p>
      )}
    </div>
  );
}
