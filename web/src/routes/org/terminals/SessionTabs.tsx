import { Link } from '@tanstack/react-router';
import type { TerminalSession, WorkerRef } from '../../../api/terminals.js';

const TAB =
  'block rounded-t-md border border-b-0 px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 aria-[current=page]:bg-white aria-[current=page]:font-semibold border-zinc-300 text-zinc-800 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-zinc-900';

interface SessionTabsProps {
  worker: WorkerRef;
  /** The sessions listed, and the one shown (listed or not yet). */
  names: readonly string[];
  sessions: readonly TerminalSession[];
  current: string;
  onKill: (name: string) => void;
}

/** The worker's sessions, one link each (the session is in the address), with a kill button. */
export function SessionTabs({ worker, names, sessions, current, onKill }: SessionTabsProps) {
  const attached = new Map(sessions.map((session) => [session.name, session.attachments]));
  return (
    <nav aria-label="Terminal sessions">
      <ul className="flex flex-wrap items-end gap-1 border-b border-zinc-300 dark:border-zinc-600">
        {names.map((name) => {
          const clients = attached.get(name);
          return (
            <li key={name} className="flex items-center">
              <Link
                to="/orgs/$orgId/projects/$projectId/workers/$workerId/terminal"
                params={worker}
                search={{ session: name }}
                aria-current={name === current ? 'page' : undefined}
                className={TAB}
              >
                {name}{' '}
                {clients === undefined ? null : (
                  <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-400">
                    {clients === 1 ? '1 attached' : `${clients} attached`}
                  </span>
                )}
              </Link>
              <button
                type="button"
                aria-label={`Kill session ${name}`}
                title={`Kill session ${name}`}
                onClick={() => onKill(name)}
                className="ml-0.5 rounded px-1.5 py-1 text-sm text-zinc-700 hover:bg-red-50 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-red-950 dark:hover:text-red-200"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
