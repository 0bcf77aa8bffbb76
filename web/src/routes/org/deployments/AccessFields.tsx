import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { orgMembersQuery } from '../../../api/orgs.js';
import { MUTED } from './Section.js';

/** Public or private, and the members allowed in when private (picked from the organization's). */
export function AccessFields(props: {
  orgId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
  onChange: (access: { accessControl: 'public' | 'private'; allowlist: string[] }) => void;
  error?: string | undefined;
}) {
  const members = useQuery(orgMembersQuery(props.orgId));
  const id = useId();
  const { accessControl, allowlist } = props;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Access</legend>
      <div className="flex gap-4">
        {(['public', 'private'] as const).map((value) => (
          <label key={value} className="flex items-center gap-1 text-sm">
            <input
              type="radio"
              name={`${id}-access`}
              checked={accessControl === value}
              onChange={() => props.onChange({ accessControl: value, allowlist })}
            />
            {value === 'public'
              ? 'Public: anyone with the URL'
              : 'Private: members of the organization'}
          </label>
        ))}
      </div>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium">Allowlist</legend>
        <p className={MUTED}>
          When private: the members whose keys may reach it and who may sign in. None chosen: every
          member may.
        </p>
        {members.error === null ? null : <p role="alert">{members.error.message}</p>}
        {members.data?.map((member) => (
          <label key={member.userId} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={allowlist.includes(member.userId)}
              onChange={() =>
                props.onChange({
                  accessControl,
                  allowlist: allowlist.includes(member.userId)
                    ? allowlist.filter((user) => user !== member.userId)
                    : [...allowlist, member.userId],
                })
              }
            />
            {member.name} ({member.email})
          </label>
        ))}
      </fieldset>
      {props.error ? <p className="text-sm text-red-700 dark:text-red-300">{props.error}</p> : null}
    </fieldset>
  );
}
