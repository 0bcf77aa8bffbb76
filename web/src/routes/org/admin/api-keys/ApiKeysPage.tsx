import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import {
  type PlatformApiKey,
  platformKeysQuery,
  useRevokePlatformKey,
} from '../../../../api/platform-keys.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
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
  const [revoking, setRevoking] = useState<PlatformApiKey | undefined>(undefined);
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
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="font-medium">{key.name}</span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">
                <code>{key.tokenPrefix}…</code> ·{' '}
                {key.ownerType === 'org' ? 'organization key' : 'personal key'} · created{' '}
                {formatMoment(key.createdAt)}
              </span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                Scopes: <span className="font-mono">{key.scopes.join(', ')}</span>
              </span>
            </div>
            {key.revokedAt === null ? (
              <Button
                variant="quiet"
                className="px-3 py-1"
                aria-label={`Revoke ${key.name}`}
                onClick={() => {
                  revoke.reset();
                  setRevoking(key);
                }}
              >
                Revoke
              </Button>
            ) : (
              <span className="rounded-full border border-red-300 px-2 py-0.5 text-sm font-medium text-red-800 dark:border-red-700 dark:text-red-200">
                Revoked {formatMoment(key.revokedAt)}
              </span>
            )}
          </li>
        ))}
      </ul>
      <CreatePlatformKey />
      <ConfirmDialog
        open={revoking !== undefined}
        onOpenChange={(open) => {
          if (!open) setRevoking(undefined);
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
