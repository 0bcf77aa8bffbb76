import { useQuery } from '@tanstack/react-query';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { platformKeysQuery, useRevokePlatformKey } from '../../../../api/platform-keys.js';
import { ApiKeyList } from '../../../../components/ApiKeyList.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { PageTitle } from '../PageTitle.js';
import { CreatePlatformKey } from './CreatePlatformKey.js';

/**
 * The organization's API keys for the platform API: create (token shown
 * once), list with their prefix, revoke; revoked keys stay listed, marked.
 */
export function ApiKeysPage() {
  const org = useOrg();
  const keys = useQuery(platformKeysQuery(org.id));
  const revoke = useRevokePlatformKey(org.id);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageTitle title="API keys">
        {orgRoleAtLeast(org.role, 'admin')
          ? 'Keys for the platform API of this organization. You see every key of the organization.'
          : 'Keys for the platform API of this organization. You see the keys you created.'}
      </PageTitle>
      {keys.isPending ? <p>Loading the keys…</p> : null}
      {keys.isError ? <FormAlert message={keys.error.message} /> : null}
      <ApiKeyList
        keys={keys.data}
        details={(key) => (
          <>
            <span className="text-sm text-zinc-600 dark:text-zinc-400">
              <code>{key.tokenPrefix}…</code> ·{' '}
              {key.ownerType === 'org' ? 'organization key' : 'personal key'} · created{' '}
              {formatMoment(key.createdAt)}
            </span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              Scopes: <span className="font-mono">{key.scopes.join(', ')}</span>
            </span>
          </>
        )}
        revoking={revoke.isPending}
        revokeRefusal={revoke.isError ? refusalOf(revoke.error).message : undefined}
        onRevoke={(keyId, done) => revoke.mutate(keyId, { onSuccess: done })}
        onRevokeAsked={() => revoke.reset()}
      />
      <CreatePlatformKey />
    </div>
  );
}
