import { FormAlert } from '../../components/FormAlert.js';
import { providerErrorMessage } from './provider-errors.js';

/**
 * The identity provider's door: a link (the browser leaves for the
 * provider and comes back signed in, GET /auth/idp/start), and its
 * refusal when the provider sent the person back without a session.
 */
export function ProviderSignIn({
  name,
  returnTo,
  invitation,
  error,
}: {
  name: string;
  /** The app's address to come back to (the server adds `idpError` on a refusal). */
  returnTo: string;
  /** An invitation token redeemed by the sign-in (a new account joins its workspace). */
  invitation?: string;
  error: string | undefined;
}) {
  const query = new URLSearchParams({ returnTo });
  if (invitation !== undefined) query.set('invitation', invitation);
  const start = `/auth/idp/start?${query.toString()}`;
  return (
    <div className="mb-4 flex flex-col gap-3 border-b border-zinc-200 pb-4 dark:border-zinc-700">
      <FormAlert message={error === undefined ? undefined : providerErrorMessage(error)} />
      <a
        href={start}
        className="rounded-md border border-zinc-300 px-4 py-2 text-center text-sm font-medium text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800 dark:focus-visible:outline-blue-400"
      >
        Sign in with {name}
      </a>
      <p className="text-center text-xs text-zinc-600 dark:text-zinc-400">or with your password</p>
    </div>
  );
}
