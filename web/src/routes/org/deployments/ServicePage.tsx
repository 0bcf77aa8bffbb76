import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { serviceQuery } from '../../../api/deployments.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { useOrg } from '../context.js';
import { JobRunsSection } from './JobRunsSection.js';
import { LINK, MUTED, Section } from './Section.js';
import { ServiceActions } from './ServiceActions.js';
import { ServiceLogs } from './ServiceLogs.js';
import { ServiceSettings } from './ServiceSettings.js';

/** A service: its live state and URL, moves, the run it follows, logs, runs and settings. */
export function ServicePage() {
  const org = useOrg();
  const { deploymentId, serviceId } = useParams({
    from: '/signed-in/orgs/$orgId/deployments/$deploymentId/services/$serviceId',
  });
  const service = useQuery(serviceQuery(org.id, deploymentId, serviceId));
  const [openRunId, setOpenRunId] = useState<string | undefined>();
  const back = (
    <Link
      to="/orgs/$orgId/deployments/$deploymentId"
      params={{ orgId: org.id, deploymentId }}
      className={`text-sm ${LINK}`}
    >
      Back to the deployment
    </Link>
  );
  if (service.error !== null) {
    return (
      <div className="mx-auto flex max-w-4xl flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold">Service</h1>
        <FormAlert message={service.error.message} />
      </div>
    );
  }
  const data = service.data;
  if (data === undefined) return <p>Loading…</p>;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{data.name}</h1>
        <StateBadge state={data.state} reason={data.stateReason} />
      </div>
      {data.stateReason ? (
        <p className="text-sm" data-testid="state-reason">
          {data.stateReason}
        </p>
      ) : null}
      <p className="flex flex-wrap gap-4 text-sm">
        <a href={data.url} target="_blank" rel="noreferrer" className={LINK}>
          {data.url}
        </a>
        <Link
          to="/orgs/$orgId/deployments/$deploymentId/services/$serviceId/shell"
          params={{ orgId: org.id, deploymentId, serviceId }}
          className={LINK}
        >
          Shell
        </Link>
        <span className={MUTED}>{data.accessControl}</span>
      </p>
      <ServiceActions service={data} onRun={setOpenRunId} />
      <JobRunsSection
        orgId={org.id}
        deploymentId={deploymentId}
        serviceId={serviceId}
        openRunId={openRunId}
        onOpen={setOpenRunId}
      />
      <Section id="service-logs" title="Logs">
        <ServiceLogs service={data} />
      </Section>
      <Section id="service-settings" title="Settings">
        <ServiceSettings service={data} onRun={setOpenRunId} />
      </Section>
    </div>
  );
}
