import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ApiError } from '../../api/client.js';
import { invitationQuery } from '../../api/invitations.js';
import { meQuery } from '../../api/session.js';
import { Card } from '../../components/Card.js';
import { FormAlert } from '../../components/FormAlert.js';
import { InvitationOffer } from './InvitationOffer.js';
import { JoinAsMember } from './JoinAsMember.js';
import { RegisterWithInvitation } from './RegisterWithInvitation.js';

const route = getRouteApi('/invite');

/**
 * An invitation link (`/app/invite?token=...`): the offer, then joining as
 * the signed-in account or registering with it. A dead link says so: the
 * API answers alike for unknown, expired, revoked and used tokens.
 */
export function Invite() {
  const { token } = route.useSearch();
  const me = useQuery(meQuery);
  const preview = useQuery({ ...invitationQuery(token ?? ''), enabled: token !== undefined });

  if (token === undefined) {
    return (
      <Card title="Invitation">
        <FormAlert message="This link has no invitation in it. Open the whole link you were sent." />
      </Card>
    );
  }
  if (preview.isError) {
    const dead = preview.error instanceof ApiError && preview.error.status === 404;
    return (
      <Card title="Invitation">
        <FormAlert
          message={
            dead
              ? 'This invitation is unknown, expired, revoked or already used. Ask the person who invited you for a new one.'
              : preview.error.message
          }
        />
      </Card>
    );
  }
  if (preview.data === undefined || me.isPending) {
    return (
      <Card title="Invitation">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading the invitation…</p>
      </Card>
    );
  }
  return (
    <Card title={`Join ${preview.data.workspace.name}`}>
      <InvitationOffer preview={preview.data} />
      {me.data ? (
        <JoinAsMember token={token} preview={preview.data} email={me.data.email} />
      ) : (
        <RegisterWithInvitation token={token} preview={preview.data} />
      )}
    </Card>
  );
}
