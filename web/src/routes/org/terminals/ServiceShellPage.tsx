import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { shellServiceQuery } from '../../../api/terminals.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { TerminalView } from './Terminal.js';

const FROM = '/signed-in/orgs/$orgId/deployments/$deploymentId/services/$serviceId/shell';
const LINK = 'text-sm text-blue-700 underline dark:text-blue-300';

/**
 * A login shell in a running replica of a deployed service (the first
 * active one). Unlike a worker's session it is not kept: leaving the page
 * ends it, and opening it again starts a new one.
 */
export function ServiceShellPage() {
  const { orgId, deploymentId, serviceId } = useParams({ from: FROM });
  const service = useQuery(shellServiceQuery(orgId, deploymentId, serviceId));
  const state = service.data?.state;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <Link
        to="/orgs/$orgId/deployments/$deploymentId/services/$serviceId"
        params={{ orgId, deploymentId, serviceId }}
        className={`${LINK} self-start`}
      >
        Back to the service
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Shell in {service.data?.name ?? 'the service'}</h1>
        {service.data ? (
          <StateBadge state={service.data.state} reason={service.data.stateReason} />
        ) : null}
      </div>
      {service.isError ? <p role="alert">{service.error.message}</p> : null}
      {state === undefined || state === 'running' ? null : (
        <p>The service is {state}: a shell opens in one of its replicas once it runs.</p>
      )}
      {state === 'running' ? (
        <>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            A login shell in the first active replica. It is not kept: leaving this page ends it.
            What you change there (files, processes) changes the running service.
          </p>
          <TerminalView
            path={`/api/services/${serviceId}/shell`}
            label={`Shell in ${service.data?.name ?? 'the service'}`}
            persistent={false}
          />
        </>
      ) : null}
    </div>
  );
}
