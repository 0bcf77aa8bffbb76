import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  type Member,
  type Role,
  useRemoveMember,
  useSetMemberRole,
} from '../../../../api/members.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { useWorkspace } from '../../context.js';
import { explainRefusal, grantableRoles, ROLE_LABELS, whyCannotManage } from './rules.js';

const SELECT =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * One member: the role as a choice when the person may change it, else as
 * words with the reason; remove (others; oneself leaves below). A refusal,
 * such as the last owner's, is shown under the row's controls.
 */
export function MemberRow({ member, isMe }: { member: Member; isMe: boolean }) {
  const workspace = useWorkspace();
  const setRole = useSetMemberRole(workspace.id);
  const remove = useRemoveMember(workspace.id);
  const [confirming, setConfirming] = useState(false);
  const reason = whyCannotManage(workspace.role, member.role);
  const roles = grantableRoles(workspace.role);
  const refusal = setRole.isError ? refusalOf(setRole.error) : undefined;
  const errorId = `member-${member.userId}-error`;
  const reasonId = `member-${member.userId}-reason`;
  const label = member.name || member.email;

  const changeRole = (role: Role) => {
    if (role !== member.role) setRole.mutate({ email: member.email, role });
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
          <select
            aria-label={`Role of ${label}`}
            aria-describedby={refusal ? errorId : undefined}
            aria-invalid={refusal ? true : undefined}
            value={member.role}
            disabled={setRole.isPending}
            onChange={(event) => {
              const role = roles.find((candidate) => candidate === event.target.value);
              if (role !== undefined) changeRole(role);
            }}
            className={SELECT}
          >
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        ) : (
          <span>{ROLE_LABELS[member.role]}</span>
        )}
        {refusal ? (
          <p
            id={errorId}
            role="alert"
            className="mt-1 max-w-xs text-sm text-red-700 dark:text-red-300"
          >
            {explainRefusal(refusal.code, refusal.message)}
          </p>
        ) : null}
      </td>
      <td className="py-2 text-right">
        {isMe ? null : reason === undefined ? (
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
        ) : workspace.role === 'admin' && member.role === 'owner' ? (
          <span id={reasonId} className="text-xs text-zinc-600 dark:text-zinc-400">
            {reason}
          </span>
        ) : null}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Remove ${label}?`}
          description={`${label} loses access to ${workspace.name}. Their cards stay.`}
          confirmLabel="Remove member"
          error={
            remove.isError
              ? explainRefusal(refusalOf(remove.error).code, refusalOf(remove.error).message)
              : undefined
          }
          pending={remove.isPending}
          onConfirm={() => remove.mutate(member.userId, { onSuccess: () => setConfirming(false) })}
        />
      </td>
    </tr>
  );
}
