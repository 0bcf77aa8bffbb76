import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { createContext, useCallback, useContext, useState } from 'react';
import { meQuery, useLogout } from '../api/session.js';
import { CommandPalette } from '../commands/CommandPalette.js';
import { Keys } from '../commands/Keys.js';
import { useRegisteredCommands } from '../commands/registry.js';
import { ShortcutsDialog } from '../commands/ShortcutsDialog.js';
import { usePaletteEntries } from '../commands/usePaletteEntries.js';
import { useShortcuts } from '../commands/useShortcuts.js';
import { Button } from './Button.js';

/**
 * A place at the start of the header that a screen's frame fills through a
 * portal (the workspace's menu button, which opens its sidebar on a phone).
 */
const HeaderStartSlot = createContext<HTMLElement | null>(null);

export function useHeaderStartSlot(): HTMLElement | null {
  return useContext(HeaderStartSlot);
}

const FOCUS =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * The frame of every screen: the header (home, the command palette, the
 * account, sign out) and the screen; signed in, the palette (Ctrl/Cmd-K)
 * and the shortcuts (`?` lists them) work everywhere.
 */
export function Shell() {
  const me = useQuery(meQuery);
  const logout = useLogout();
  const navigate = useNavigate();
  const signOut = useCallback(
    () => logout.mutate(undefined, { onSettled: () => navigate({ to: '/sign-in' }) }),
    [logout, navigate],
  );
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const signedIn = Boolean(me.data);
  const commands = useRegisteredCommands();
  useShortcuts(
    commands,
    { togglePalette: () => setPaletteOpen((open) => !open), openHelp: () => setHelpOpen(true) },
    signedIn,
  );
  const entries = usePaletteEntries(paletteOpen, signOut);
  return (
    <HeaderStartSlot.Provider value={slot}>
      <div className="min-h-screen bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
        <header className="flex h-14 items-center justify-between gap-2 border-b border-zinc-200 bg-white px-4 py-2 dark:border-zinc-800 dark:bg-zinc-900">
          <div className="flex min-w-0 items-center gap-2">
            <span ref={setSlot} className="contents" />
            <Link to="/" className={`rounded font-semibold ${FOCUS}`}>
              Sparrow
            </Link>
          </div>
          {me.data ? (
            <div className="flex min-w-0 items-center gap-2 sm:gap-3">
              <button
                type="button"
                onClick={() => setPaletteOpen(true)}
                className={`flex items-center gap-2 rounded-md border border-zinc-300 px-2.5 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-200 dark:hover:bg-zinc-800 ${FOCUS}`}
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
                  <path d="M8.5 3a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64-1.06 1.06-3.64-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z" />
                </svg>
                <span className="sr-only sm:not-sr-only">Commands</span>
                <span className="hidden sm:flex">
                  <Keys shortcut="mod+k" />
                </span>
              </button>
              <span className="hidden truncate text-sm text-zinc-700 md:inline dark:text-zinc-300">
                {me.data.email}
              </span>
              <Button
                variant="quiet"
                onClick={signOut}
                disabled={logout.isPending}
                className="shrink-0 px-3"
              >
                Sign out
              </Button>
            </div>
          ) : null}
        </header>
        <main className="px-4 pb-16">
          <Outlet />
        </main>
        {signedIn ? (
          <>
            <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} entries={entries} />
            <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} commands={commands} />
          </>
        ) : null}
      </div>
    </HeaderStartSlot.Provider>
  );
}
