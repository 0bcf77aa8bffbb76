import { useState } from 'react';
import { Button } from '../Button.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { RoleSelect } from './RoleSelect.js';

export interface MemberRowProps<R extends string> {
  userId: string;
  name: string;
  email: string;
  isMe: boolean;
  role: R;
  labels: Record<R, string>;
  /** The roles offered; undefined: the person may not change this member (`reason` says why). */
  choices: readonly R[] | undefined;
  /** Why the person may not manage this member, shown in the row when `showReason`. */
  reason?: string | undefined;
  showReason?: boolean;
  changing: boolean;
  onRole: (role: R) => void;
  /** The refusal of a role change, in words. */
  roleRefusal: string | undefined;
  /** Removing is offered (never for oneself: one leaves instead). */
  removable: boolean;
  /** What removing does, said in the confirmation. */
  removeDescription: string;
  removing: boolean;
  removeRefusal: string | undefined;
  /** Removes; `done` closes the confirmation. */
  onRemove: (done: () => void) => void;
  /** Clears an earlier refusal before asking again. */
  onRemoveAsked: () => void;
}

/**
 * One member of a workspace or an organization: the role as a choice when
 * the person may change it, else as words; remove after a confirmation. A
 * refusal, such as the last owner's, shows under the row's controls.
 */
export function MemberRow<R extends string>(props: MemberRowProps<R>) {
  const [confirming, setConfirming] = useState(false);
  const errorId = `member-${props.userId}-error`;
  const label = props.name || props.email;
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-700">
      <td className="py-2 pr-3">
        <span className="font-medium">{label}</span>
        {props.isMe ? <span className="text-zinc-600 dark:text-zinc-400"> (you)</span> : null}
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{props.email}</span>
      </td>
      <td className="py-2 pr-3">
        {props.choices === undefined ? (
          <span>{props.labels[props.role]}</span>
        ) : (
          <RoleSelect
            ariaLabel={`Role of ${label}`}
            roles={props.choices}
            labels={props.labels}
            value={props.role}
            onChange={(role) => {
              if (role !== props.role) props.onRole(role);
            }}
            disabled={props.changing}
            describedBy={props.roleRefusal ? errorId : undefined}
          />
        )}
        {props.roleRefusal ? (
          <p
            id={errorId}
            role="alert"
            className="mt-1 max-w-xs text-sm text-red-700 dark:text-red-300"
          >
            {props.roleRefusal}
          </p>
        ) : null}
      </td>
      <td className="py-2 text-right">
        {props.removable && !props.isMe ? (
          <Button
            variant="quiet"
            className="px-3 py-1"
            aria-label={`Remove ${label}`}
            onClick={() => {
              props.onRemoveAsked();
              setConfirming(true);
            }}
          >
            Remove
          </Button>
        ) : props.showReason && !props.isMe ? (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{props.reason}</span>
        ) : null}
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Remove ${label}?`}
          description={props.removeDescription}
          confirmLabel="Remove member"
          error={props.removeRefusal}
          pending={props.removing}
          onConfirm={() => props.onRemove(() => setConfirming(false))}
        />
      </td>
    </tr>
  );
}
