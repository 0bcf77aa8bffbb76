import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { meQuery, useLogout } from '../api/session.js';
import { Button } from './Button.js';

/** The frame of every screen: the header (home, the account, sign out) and the screen. */
export function Shell() {
  const me = useQuery(meQuery);
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = () => logout.mutate(undefined, { onSettled: () => navigate({ to: '/sign-in' }) });
  return (
    <div className="min-h-screen bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex h-14 items-center justify-between border-b border-zinc-200 bg-white px-4 py-2 dark:border-zinc-800 dark:bg-zinc-900">
        <Link
          to="/"
          className="rounded font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Sparrow
        </Link>
        {me.data ? (
          <div className="flex items-center gap-3">
            <span className="text-sm text-zinc-700 dark:text-zinc-300">{me.data.email}</span>
            <Button variant="quiet" onClick={signOut} disabled={logout.isPending}>
              Sign out
            </Button>
          </div>
        ) : null}
      </header>
      <main className="px-4 pb-16">
        <Outlet />
      </main>
    </div>
  );
}
