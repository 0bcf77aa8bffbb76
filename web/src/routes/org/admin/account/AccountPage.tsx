import { useQuery } from '@tanstack/react-query';
import { userMeQuery } from '../../../../api/account.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { PageTitle } from '../PageTitle.js';
import { DotfilesForm } from './DotfilesForm.js';
import { ExtensionsForm } from './ExtensionsForm.js';
import { UserSecrets } from './UserSecrets.js';

/** The signed-in person's own platform settings and secrets, in every organization. */
export function AccountPage() {
  const me = useQuery(userMeQuery);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 py-6">
      <PageTitle title="Your account">
        {me.data
          ? `${me.data.name || me.data.email}: settings for your workers in every organization.`
          : undefined}
      </PageTitle>
      {me.isPending ? <p>Loading your settings…</p> : null}
      {me.isError ? <FormAlert message={me.error.message} /> : null}
      {me.data ? <DotfilesForm key={me.data.dotfilesRepo ?? ''} me={me.data} /> : null}
      {me.data ? <ExtensionsForm me={me.data} /> : null}
      <UserSecrets />
    </div>
  );
}
