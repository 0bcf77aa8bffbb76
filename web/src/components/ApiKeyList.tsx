import { type ReactNode, useState } from 'react';
import { formatMoment } from '../api/events.js';
import { Button } from './Button.js';
import { ConfirmDialog } from './ConfirmDialog.js';

export interface ListedKey {
  id: string;
  name: string;
  revokedAt: string | null;
}

interface ApiKeyListProps<K extends ListedKey> {
  keys: readonly K[] | undefined;
  /** What is said of a key under its name (prefix, role or scopes, dates). */
  details: (key: K) => ReactNode;
  revoking: boolean;
  /** The refusal of a revoke, in words. */
  revokeRefusal: string | undefined;
  /** Revokes; `done` closes the confirmation. */
  onRevoke: (keyId: string, done: () => void) => void;
  /** Clears an earlier refusal before asking again. */
  onRevokeAsked: () => void;
}

/**
 * API keys (a workspace's or an organization's), newest first: name and
 * details, Revoke after a confirmation; revoked keys stay listed, marked.
 */
export function ApiKeyList<K extends ListedKey>(props: ApiKeyListProps<K>) {
  const [asking, setAsking] = useState<K | undefined>(undefined);
  return (
    <>
      {props.keys?.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">No API key yet.</p>
      ) : null}
      <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white empty:hidden dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900">
        {props.keys?.map((key) => (
          <li
            key={key.id}
            aria-label={key.name}
            className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
          >
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="font-medium">{key.name}</span>
              {props.details(key)}
            </div>
            {key.revokedAt === null ? (
              <Button
                variant="quiet"
                className="px-3 py-1"
                aria-label={`Revoke ${key.name}`}
                onClick={() => {
                  props.onRevokeAsked();
                  setAsking(key);
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
      <ConfirmDialog
        open={asking !== undefined}
        onOpenChange={(open) => {
          if (!open) setAsking(undefined);
        }}
        title={`Revoke ${asking?.name ?? 'the key'}?`}
        description="Requests with its token are refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        pending={props.revoking}
        error={props.revokeRefusal}
        onConfirm={() => {
          if (asking !== undefined) props.onRevoke(asking.id, () => setAsking(undefined));
        }}
      />
    </>
  );
}
