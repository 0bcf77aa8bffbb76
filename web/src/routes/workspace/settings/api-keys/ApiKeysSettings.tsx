import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiKeysQuery, useRevokeApiKey, type WorkspaceApiKey } from '../../../../api/api-keys.js';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
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
  const [revoking, setRevoking] = useState<WorkspaceApiKey | undefined>(undefined);
  const revoke = useRevokeApiKey(workspace.id);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="keys-title" className="flex flex-col gap-3">
        <h2 id="keys-title" className="text-xl font-semibold">
          API keys
        </h2>
        {keys.isPending ? <p>Loading…</p> : null}
        {keys.isError ? <p role="alert">{keys.error.message}</p> : null}
        {keys.data?.length === 0 ? (
          <p className="text-zinc-700 dark:text-zinc-300">No API key yet.</p>
        ) : null}
        <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white empty:hidden dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900">
          {keys.data?.map((key) => (
            <li
              key={key.id}
              aria-label={key.name}
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
            >
              <div className="flex flex-col">
                <span className="font-medium">{key.name}</span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  <code>{key.tokenPrefix}…</code> · {key.role} · created{' '}
                  {formatMoment(key.createdAt)}
                  {' · '}
                  {key.lastUsedAt === null
                    ? 'never used'
                    : `last used ${formatMoment(key.lastUsedAt)}`}
                </span>
              </div>
              {key.revokedAt === null ? (
                <Button
                  variant="quiet"
                  className="px-3 py-1"
                  aria-label={`Revoke ${key.name}`}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </Button>
              ) : (
                <span className="text-sm font-medium text-red-700 dark:text-red-300">
                  Revoked {formatMoment(key.revokedAt)}
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>
      <CreateApiKeyForm workspace={workspace} />
      <ConfirmDialog
        open={revoking !== undefined}
        onOpenChange={(open) => {
          if (!open) {
            setRevoking(undefined);
            revoke.reset();
          }
        }}
        title={`Revoke ${revoking?.name ?? 'the key'}?`}
        description="Requests with its token are refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        error={revoke.isError ? refusalOf(revoke.error).message : undefined}
        onConfirm={() => {
          if (revoking !== undefined)
            revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) });
        }}
      />
    </div>
  );
}
