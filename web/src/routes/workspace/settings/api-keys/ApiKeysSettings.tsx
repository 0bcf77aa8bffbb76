import { useQuery } from '@tanstack/react-query';
import { apiKeysQuery, useRevokeApiKey } from '../../../../api/api-keys.js';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { ApiKeyList } from '../../../../components/ApiKeyList.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { CreateApiKeyForm } from './CreateApiKeyForm.js';

/** The workspace's API keys: create (token shown once), list, revoke. Admins and owners only. */
export function ApiKeysSettings() {
  const workspace = useWorkspace();
  if (!roleAtLeast(workspace.role, 'admin')) {
    return (
      <section aria-labelledby="keys-title" className="flex flex-col gap-3">
        <h2 id="keys-title" className="text-xl font-semibold">
          API keys
        </h2>
        <p className="text-zinc-700 dark:text-zinc-300">
          Only admins and owners can see and manage API keys; your role is {workspace.role}.
        </p>
      </section>
    );
  }
  return <ApiKeys />;
}

function ApiKeys() {
  const workspace = useWorkspace();
  const keys = useQuery(apiKeysQuery(workspace.id));
  const revoke = useRevokeApiKey(workspace.id);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="keys-title" className="flex flex-col gap-3">
        <h2 id="keys-title" className="text-xl font-semibold">
          API keys
        </h2>
        {keys.isPending ? <p>Loading…</p> : null}
        {keys.isError ? <p role="alert">{keys.error.message}</p> : null}
        <ApiKeyList
          keys={keys.data}
          details={(key) => (
            <span className="text-sm text-zinc-600 dark:text-zinc-400">
              <code>{key.tokenPrefix}…</code> · {key.role} · created {formatMoment(key.createdAt)}
              {' · '}
              {key.lastUsedAt === null ? 'never used' : `last used ${formatMoment(key.lastUsedAt)}`}
            </span>
          )}
          revoking={revoke.isPending}
          revokeRefusal={revoke.isError ? refusalOf(revoke.error).message : undefined}
          onRevoke={(keyId, done) => revoke.mutate(keyId, { onSuccess: done })}
          onRevokeAsked={() => revoke.reset()}
        />
      </section>
      <CreateApiKeyForm workspace={workspace} />
    </div>
  );
}
