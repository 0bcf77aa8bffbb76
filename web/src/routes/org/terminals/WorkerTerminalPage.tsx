import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import {
  terminalSessionsQuery,
  terminalWorkerQuery,
  useKillTerminal,
  useRefreshSessions,
} from '../../../api/terminals.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { NewSessionForm } from './NewSessionForm.js';
import { SessionTabs } from './SessionTabs.js';
import { TerminalView } from './Terminal.js';

const FROM = '/signed-in/orgs/$orgId/projects/$projectId/workers/$workerId/terminal';
const LINK = 'text-sm text-blue-700 underline dark:text-blue-300';

/**
 * A worker's terminal sessions in the browser: one tab per named session
 * (the one shown is `?session=` in the address), create one, kill one
 * (after a confirmation), and the session attached below. Leaving the page
 * detaches: the session keeps running, and coming back restores its screen.
 */
export function WorkerTerminalPage() {
  const worker = useParams({ from: FROM });
  const search = useSearch({ from: FROM });
  const navigate = useNavigate({
    from: '/orgs/$orgId/projects/$projectId/workers/$workerId/terminal',
  });
  const details = useQuery(terminalWorkerQuery(worker));
  const running = details.data?.state === 'ready';
  const sessions = useQuery({ ...terminalSessionsQuery(worker), enabled: running });
  const refreshSessions = useRefreshSessions(worker);
  const kill = useKillTerminal(worker);
  const [killing, setKilling] = useState<string | undefined>(undefined);

  const listed = sessions.data ?? [];
  const current = search.session ?? listed[0]?.name ?? 'main';
  // The session shown is a tab even before the list has it (attaching creates it).
  const names = listed.some((session) => session.name === current)
    ? listed.map((session) => session.name)
    : [...listed.map((session) => session.name), current];
  const show = (session: string) => navigate({ search: { session } });

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <Link
        to="/orgs/$orgId/projects/$projectId/workers/$workerId"
        params={worker}
        className={`${LINK} self-start`}
      >
        Back to the worker
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Terminal of {details.data?.name ?? 'the worker'}</h1>
        {details.data ? (
          <StateBadge state={details.data.state} reason={details.data.stateReason} />
        ) : null}
      </div>
      {details.isError ? <p role="alert">{details.error.message}</p> : null}
      {details.data !== undefined && !running ? (
        <p>
          The worker is {details.data.state}: its terminals open once it is ready. Start it from{' '}
          <Link
            to="/orgs/$orgId/projects/$projectId/workers/$workerId"
            params={worker}
            className={LINK}
          >
            its page
          </Link>
          .
        </p>
      ) : null}
      {running ? (
        <>
          {sessions.isError ? <p role="alert">{refusalOf(sessions.error).message}</p> : null}
          <SessionTabs
            worker={worker}
            names={names}
            sessions={listed}
            current={current}
            onKill={setKilling}
          />
          {search.session === undefined && sessions.data === undefined ? (
            <p>Listing the sessions…</p>
          ) : (
            <TerminalView
              key={current}
              path={`/api/workers/${worker.workerId}/terminal?mode=terminal&session=${encodeURIComponent(current)}`}
              label={`Terminal: session ${current}`}
              persistent
              onStateChange={(state) => {
                if (state.state === 'connected' || state.state === 'ended') void refreshSessions();
              }}
            />
          )}
          <NewSessionForm worker={worker} onCreated={show} />
        </>
      ) : null}
      <ConfirmDialog
        open={killing !== undefined}
        onOpenChange={(open) => {
          if (!open) {
            setKilling(undefined);
            kill.reset();
          }
        }}
        title={`Kill session ${killing ?? ''}?`}
        description="Its program ends and its scrollback is gone; whoever is attached sees it end."
        confirmLabel="Kill session"
        pending={kill.isPending}
        error={kill.isError ? refusalOf(kill.error).message : undefined}
        onConfirm={() => {
          if (killing === undefined) return;
          kill.mutate(killing, {
            onSuccess: () => {
              const killed = killing;
              setKilling(undefined);
              const next = listed.find((session) => session.name !== killed);
              // Another session is shown; the last one killed stays shown as ended.
              if (killed === current && next !== undefined) void show(next.name);
            },
          });
        }}
      />
    </div>
  );
}
