import { useNavigate } from '@tanstack/react-router';
import { refusalOf } from '../../api/errors.js';
import { useAcceptInvitation } from '../../api/invitations.js';
import type { components } from '../../api/schema.js';
import { useLogout } from '../../api/session.js';
import { Button } from '../../components/Button.js';
import { FormAlert } from '../../components/FormAlert.js';

type Preview = components['schemas']['InvitationPreview'];

/**
 * A signed-in person: one button to join when the invitation is for their
 * address; otherwise it says so, and offers to sign out (to sign in as the
 * invited address, which comes back here).
 */
export function JoinAsMember({
  token,
  preview,
  email,
}: {
  token: string;
  preview: Preview;
  email: string;
}) {
  const accept = useAcceptInvitation();
  const logout = useLogout();
  const navigate = useNavigate();
  const refusal = accept.isError ? refusalOf(accept.error) : undefined;

  if (email.toLowerCase() !== preview.email.toLowerCase()) {
    return (
      <div className="flex flex-col gap-3 text-sm">
        <p role="alert" className="text-red-800 dark:text-red-200">
          This invitation is for {preview.email}, and you are signed in as {email}. Sign out, then
          sign in or register as {preview.email} to join.
        </p>
        <Button variant="quiet" disabled={logout.isPending} onClick={() => logout.mutate()}>
          Sign out
        </Button>
      </div>
    );
  }

  const join = () =>
    accept.mutate(token, {
      onSuccess: (joined) =>
        navigate({ to: '/$workspaceSlug', params: { workspaceSlug: joined.workspace.slug } }),
    });

  return (
    <div className="flex flex-col gap-3">
      <FormAlert message={refusal?.message} />
      <Button onClick={join} disabled={accept.isPending}>
        {accept.isPending ? 'Joining…' : `Join ${preview.workspace.name}`}
      </Button>
    </div>
  );
}
