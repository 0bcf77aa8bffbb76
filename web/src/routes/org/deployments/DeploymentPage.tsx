import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { deploymentQuery, servicesQuery } from '../../../api/deployments.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { useOrg } from '../context.js';
import { DeploymentActions } from './DeploymentActions.js';
import { DeploymentSettings } from './DeploymentSettings.js';
import { JobRunsSection } from './JobRunsSection.js';
import { LINK, Section } from './Section.js';
import { ServicesSection } from './ServicesSection.js';

/** A deployment: its moves, settings, services (live) and job runs. */
export function DeploymentPage() {
  const org = useOrg();
  const { deploymentId } = useParams({ from: '/signed-in/orgs/$orgId/deployments/$deploymentId' });
  const deployment = useQuery(deploymentQuery(org.id, deploymentId));
  const services = useQuery(servicesQuery(org.id, deploymentId));
  const [openRunId, setOpenRunId] = useState<string | undefined>();
  if (deployment.error !== null) {
    return (
      <div className="mx-auto flex max-w-4xl flex-col gap-4">
        <h1 className="text-2xl font-semibold">Deployment</h1>
        <FormAlert message={deployment.error.message} />
        <Link to="/orgs/$orgId/deployments" params={{ orgId: org.id }} className={LINK}>
          All deployments
        </Link>
      </div>
    );
  }
  const data = deployment.data;
  if (data === undefined) return <p>Loading…</p>;
  const names = new Map(services.data?.map((service) => [service.id, service.name]));
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <Link to="/orgs/$orgId/deployments" params={{ orgId: org.id }} className={`text-sm ${LINK}`}>
        All deployments
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{data.name}</h1>
        <StateBadge state={data.state} />
      </div>
      {data.description ? <p>{data.description}</p> : null}
      <DeploymentActions deployment={data} />
      <ServicesSection orgId={org.id} deploymentId={deploymentId} services={services.data} />
      <JobRunsSection
        orgId={org.id}
        deploymentId={deploymentId}
        serviceNames={names}
        openRunId={openRunId}
        onOpen={setOpenRunId}
      />
      <Section id="deployment-settings" title="Settings">
        <DeploymentSettings key={data.updatedAt} deployment={data} />
      </Section>
    </div>
  );
}
