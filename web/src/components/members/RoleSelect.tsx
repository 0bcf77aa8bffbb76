import { useId } from 'react';

const SELECT =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';
const COMPACT =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * A choice among the roles the person may grant (a workspace's or an
 * organization's): labelled "Role" in a form, or named by `ariaLabel` alone
 * in a member's row.
 */
export function RoleSelect<R extends string>(props: {
  roles: readonly R[];
  labels: Record<R, string>;
  value: R;
  onChange: (role: R) => void;
  /** The accessible name of a select without a visible label (a row's). */
  ariaLabel?: string;
  disabled?: boolean;
  /** The refusal about it; marks it invalid. */
  describedBy?: string | undefined;
}) {
  const id = useId();
  const select = (
    <select
      id={id}
      aria-label={props.ariaLabel}
      aria-describedby={props.describedBy}
      aria-invalid={props.describedBy === undefined ? undefined : true}
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => {
        const role = props.roles.find((candidate) => candidate === event.target.value);
        if (role !== undefined) props.onChange(role);
      }}
      className={props.ariaLabel === undefined ? SELECT : COMPACT}
    >
      {props.roles.map((role) => (
        <option key={role} value={role}>
          {props.labels[role]}
        </option>
      ))}
    </select>
  );
  if (props.ariaLabel !== undefined) return select;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Role
      </label>
      {select}
    </div>
  );
}
