import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { linkedWorkerQuery } from '../../../../api/card-workers.js';
import { refusalOf } from '../../../../api/errors.js';
import { StateBadge } from '../../../../components/StateBadge.js';
import type { WorkerLink } from './workerLinks.js';

const LINK =
  'rounded font-medium text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300';
const BUTTON =
  'rounded-md border border-zinc-300 px-2 py-0.5 text-xs font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:hover:bg-zinc-800';
const MUTED = 'text-xs text-zinc-600 dark:text-zinc-400';

/**
 * One worker the card links to: its live state, its page and its terminal;
 * "deleted" once it is gone; in words when the person is not in its organization.
 */
export function LinkedWorker({ link, member }: { link: WorkerLink; member: boolean }) {
  const worker = useQuery({
    ...linkedWorkerQuery(link.orgId, link.projectId, link.workerId),
    enabled: member,
  });
  const params = { orgId: link.orgId, projectId: link.projectId, workerId: link.workerId };
  if (!member) {
    return (
      <li className="flex flex-col">
        <span>{link.text}</span>
        <span className={MUTED}>You are not a member of its organization.</span>
      </li>
    );
  }
  if (worker.isPending) {
    return (
      <li>
        {link.text} <span className={MUTED}>Loading its state…</span>
      </li>
    );
  }
  if (worker.isError) {
    return (
      <li>
        {link.text} <span className={MUTED}>{refusalOf(worker.error).message}</span>
      </li>
    );
  }
  if (worker.data === null) {
    return (
      <li className="flex items-center gap-2" aria-label={`${link.text}: deleted`}>
        <span className="text-zinc-600 line-through dark:text-zinc-400">{link.text}</span>
        <span className="text-xs font-medium">deleted</span>
      </li>
    );
  }
  const { name, branch, state, stateReason } = worker.data;
  return (
    <li className="flex flex-wrap items-center gap-2">
      <Link
        to="/orgs/$orgId/projects/$projectId/workers/$workerId"
        params={params}
        className={LINK}
      >
        {name}
      </Link>
      <StateBadge state={state} reason={stateReason} />
      {branch === null ? null : <code className={MUTED}>{branch}</code>}
      <Link
        to="/orgs/$orgId/projects/$projectId/workers/$workerId/terminal"
        params={params}
        aria-label={`Terminal of ${name}`}
        className={`ml-auto ${BUTTON}`}
      >
        Terminal
      </Link>
      {stateReason === null ? null : <p className={`w-full ${MUTED}`}>{stateReason}</p>}
    </li>
  );
}
