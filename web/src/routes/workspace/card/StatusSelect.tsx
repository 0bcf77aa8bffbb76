import type { Status } from '../../../api/items.js';
import { ColorDot } from './fields/ColorDot.js';
import { INPUT } from './fields/types.js';

/** The id the `s` command focuses. */
export const STATUS_CONTROL_ID = 'card-status';

/** The card's status among the workspace's, its color beside it. */
export function StatusSelect({
  statuses,
  value,
  onChange,
  disabled,
}: {
  statuses: Status[];
  value: string;
  onChange: (statusId: string) => void;
  disabled: boolean;
}) {
  const current = statuses.find((status) => status.id === value);
  return (
    <div className="grid grid-cols-[minmax(6rem,9rem)_1fr] items-center gap-2 py-1">
      <label htmlFor={STATUS_CONTROL_ID} className="text-sm text-zinc-700 dark:text-zinc-300">
        Status
      </label>
      <div className="flex items-center gap-2">
        {current === undefined ? null : <ColorDot color={current.color} />}
        <select
          id={STATUS_CONTROL_ID}
          className={INPUT}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        >
          {statuses.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
