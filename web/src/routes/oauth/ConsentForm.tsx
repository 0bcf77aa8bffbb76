import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import { useGrantConsent } from '../../api/oauth.js';
import type { components } from '../../api/schema.js';
import { Button } from '../../components/Button.js';
import { FormAlert } from '../../components/FormAlert.js';
import { denialUrl } from './deny.js';

type Preview = components['schemas']['ConsentPreview'];

/** Leaves the app for the OAuth client's redirect URI (a full navigation, as OAuth expects). */
function leaveFor(url: string): void {
  window.location.assign(url);
}

/** The scopes in words, the workspace to install in, and Approve or Deny. */
export function ConsentForm({
  preview,
  state,
  codeChallenge,
}: {
  preview: Preview;
  state: string | undefined;
  codeChallenge: string;
}) {
  const [workspaceId, setWorkspaceId] = useState(preview.workspaces[0]?.id ?? '');
  const grant = useGrantConsent();
  const refusal = grant.isError ? refusalOf(grant.error) : undefined;

  const approve = (event: FormEvent) => {
    event.preventDefault();
    grant.mutate(
      {
        clientId: preview.app.clientId,
        redirectUri: preview.redirectUri,
        workspaceId,
        scopes: preview.scopes.map((scope) => scope.scope),
        ...(state === undefined ? {} : { state }),
        codeChallenge,
        codeChallengeMethod: 'S256',
      },
      { onSuccess: (result) => leaveFor(result.redirectTo) },
    );
  };

  return (
    <form onSubmit={approve} className="flex flex-col gap-4">
      <div>
        <h2 className="mb-1 text-sm font-semibold">It will be able to</h2>
        <ul className="list-disc pl-5 text-sm">
          {preview.scopes.map((scope) => (
            <li key={scope.scope}>{scope.label}</li>
          ))}
        </ul>
      </div>
      {preview.workspaces.length === 0 ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          You are not an admin or owner of any workspace, so you cannot install this app. Ask a
          workspace admin to approve it.
        </p>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor="consent-workspace" className="text-sm font-medium">
            Install in workspace
          </label>
          <select
            id="consent-workspace"
            value={workspaceId}
            onChange={(event) => setWorkspaceId(event.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {preview.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name} ({workspace.role})
              </option>
            ))}
          </select>
        </div>
      )}
      <FormAlert message={refusal?.message} />
      <div className="flex gap-3">
        <Button
          type="submit"
          className="flex-1"
          disabled={grant.isPending || preview.workspaces.length === 0}
        >
          Approve
        </Button>
        <Button
          variant="quiet"
          className="flex-1"
          onClick={() => leaveFor(denialUrl(preview.redirectUri, state))}
        >
          Deny
        </Button>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        You will be sent back to {new URL(preview.redirectUri).host}.
      </p>
    </form>
  );
}
