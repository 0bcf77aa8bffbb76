import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  type OrgMember,
  type OrgRole,
  useChangeOrgMemberRole,
  useRemoveOrgMember,
} from '../../../../api/org-members.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { useOrg } from '../../context.js';
import { OrgRoleSelect } from './OrgRoleSelect.js';
import {
  explainMemberRefusal,
  grantableOrgRoles,
  ORG_ROLE_LABELS,
  whyCannotManage,
} from './rules.js';

/**
 * One member: the role as a choice when the person may change it, else as
 * words; remove with a confirmation. A refusal (the last owner's) shows under
 * the row's controls.
 */
export function OrgMemberRow({ member, isMe }: { member: OrgMember; isMe: boolean }) {
  const org = useOrg();
  const change = useChangeOrgMemberRole(org.id);
  const remove = useRemoveOrgMember(org.id);
  const [confirming, setConfirming] = useState(false);
  const reason = whyCannotManage(org.role, member.role);
  const roles = grantableOrgRoles(org.role);
  // An owner the person cannot manage keeps a choice with only their current role.
  const choices = roles.includes(member.role) ? roles : [member.role, ...roles];
  const refusal = change.isError ? refusalOf(change.error) : undefined;
  const errorId = `member-${member.userId}-error`;
  const label = member.name || member.email;
  const removal = remove.isError ? refusalOf(remove.error) : undefined;

  const changeRole = (role: OrgRole) => {
    if (role !== member.role) change.mutate({ userId: member.userId, role });
  };

  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-700">
      <td className="py-2 pr-3">
        <span className="font-medium">{label}</span>
        {isMe ? <span className="text-zinc-600 dark:text-zinc-400"> (you)</span> : null}
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{member.email}</span>
      </td>
      <td className="py-2 pr-3">
        {reason === undefined ? (
          <OrgRoleSelect
            ariaLabel={`Role of ${label}`}
            roles={choices}
            value={member.role}
            onChange={changeRole}
            disabled={change.isPending}
            describedBy={refusal ? errorId : undefined}
          />
        ) : (
          <span>{ORG_ROLE_LABELS[member.role]}</span>
        )}
        {refusal ? (
          <p
            id={errorId}
            role="alert"
            className="mt-1 max-w-xs text-sm text-red-700 dark:text-red-300"
          >
            {explainMemberRefusal(refusal.code, refusal.message)}
          </p>
        ) : null}
      </td>
      <td className="py-2 text-right">
        {reason === undefined && !isMe ? (
          <Button
            variant="quiet"
            className="px-3 py-1"
            aria-label={`Remove ${label}`}
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            Remove
          </Button>
        ) : null}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Remove ${label}?`}
          description={`${label} loses access to ${org.name}; their personal API keys there stop working.`}
          confirmLabel="Remove member"
          error={removal ? explainMemberRefusal(removal.code, removal.message) : undefined}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(member.userId, { onSuccess: () => setConfirming(false) })}
        />
      </td>
    </tr>
  );
}
