import { useId } from 'react';
import type { Role } from '../../../../api/members.js';
import { ROLE_LABELS } from './rules.js';

/** A labelled choice among the roles the person may grant. */
export function RoleSelect({
  roles,
  value,
  onChange,
}: {
  roles: Role[];
  value: Role;
  onChange: (role: Role) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Role
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const role = roles.find((candidate) => candidate === event.target.value);
          if (role !== undefined) onChange(role);
        }}
        className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {roles.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  );
}
