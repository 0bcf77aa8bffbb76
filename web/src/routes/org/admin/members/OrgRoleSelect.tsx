import { useId } from 'react';
import type { OrgRole } from '../../../../api/org-members.js';
import { ORG_ROLE_LABELS } from './rules.js';

const SELECT =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/** A labelled choice among the roles the person may grant. */
export function OrgRoleSelect(props: {
  roles: OrgRole[];
  value: OrgRole;
  onChange: (role: OrgRole) => void;
  /** A visible label, or (when given) an accessible name only. */
  ariaLabel?: string;
  disabled?: boolean;
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
      className={SELECT}
    >
      {props.roles.map((role) => (
        <option key={role} value={role}>
          {ORG_ROLE_LABELS[role]}
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
