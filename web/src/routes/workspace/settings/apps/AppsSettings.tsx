import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type AppInstallation,
  appInstallationsQuery,
  appScopesQuery,
  useRevokeInstallation,
} from '../../../../api/apps.js';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { membersQuery } from '../../../../api/members.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { roleAtLeast, useWorkspace } from '../../context.js';

/** The apps installed in the workspace: name, scopes, who installed them and when; revoke. */
export function AppsSettings() {
  const workspace = useWorkspace();
  if (!roleAtLeast(workspace.role, 'admin')) {
    return (
      <section aria-labelledby="apps-title" className="flex flex-col gap-3">
        <h2 id="apps-title" className="text-xl font-semibold">
          Installed apps
        </h2>
        <p className="text-zinc-700 dark:text-zinc-300">
          Only admins and owners can see and revoke installed apps; your role is {workspace.role}.
        </p>
      </section>
    );
  }
  return <Installations />;
}

function Installations() {
  const workspace = useWorkspace();
  const installations = useQuery(appInstallationsQuery(workspace.id));
  const members = useQuery(membersQuery(workspace.id));
  const scopes = useQuery(appScopesQuery);
  const scopeInWords = (scope: string) =>
    scopes.data?.find((known) => known.scope === scope)?.label ?? scope;
  const nameOf = (userId: string) =>
    members.data?.find((member) => member.userId === userId)?.name ?? 'a former member';
  const [revoking, setRevoking] = useState<AppInstallation | undefined>(undefined);
  const revoke = useRevokeInstallation(workspace.id);
  return (
    <section aria-labelledby="apps-title" className="flex flex-col gap-3">
      <h2 id="apps-title" className="text-xl font-semibold">
        Installed apps
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Apps are installed when a member approves them on their consent page.
      </p>
      {installations.isPending ? <p>Loading…</p> : null}
      {installations.isError ? <p role="alert">{installations.error.message}</p> : null}
      {installations.data?.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">No app is installed.</p>
      ) : null}
      <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white empty:hidden dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900">
        {installations.data?.map((installation) => (
          <li
            key={installation.id}
            aria-label={installation.appName}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
          >
            <div className="flex flex-col gap-1">
              <span className="font-medium">{installation.appName}</span>
              <span className="text-sm text-zinc-600 dark:text-zinc-400">
                Installed by {nameOf(installation.installedBy)} on{' '}
                {formatMoment(installation.createdAt)} · acts as {installation.role}
              </span>
              <ul
                aria-label={`Scopes of ${installation.appName}`}
                className="list-disc pl-5 text-sm text-zinc-800 dark:text-zinc-200"
              >
                {installation.scopes.map((scope) => (
                  <li key={scope}>
                    {scopeInWords(scope)}{' '}
                    <code className="text-xs text-zinc-600 dark:text-zinc-400">({scope})</code>
                  </li>
                ))}
              </ul>
            </div>
            {installation.revokedAt === null ? (
              <Button
                variant="quiet"
                className="px-3 py-1"
                aria-label={`Revoke ${installation.appName}`}
                onClick={() => setRevoking(installation)}
              >
                Revoke
              </Button>
            ) : (
              <span className="text-sm font-medium text-red-700 dark:text-red-300">
                Revoked {formatMoment(installation.revokedAt)}
              </span>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={revoking !== undefined}
        onOpenChange={(open) => {
          if (!open) {
            setRevoking(undefined);
            revoke.reset();
          }
        }}
        title={`Revoke ${revoking?.appName ?? 'the app'}?`}
        description="Its access token stops working at once; the app must be approved again to come back."
        confirmLabel="Revoke app"
        pending={revoke.isPending}
        error={revoke.isError ? refusalOf(revoke.error).message : undefined}
        onConfirm={() => {
          if (revoking !== undefined)
            revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) });
        }}
      />
    </section>
  );
}
