import { Link } from '@tanstack/react-router';
import type { Service } from '../../../api/deployments.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { AddServiceForm } from './AddServiceForm.js';
import { LINK, MUTED, Section } from './Section.js';

/** A deployment's services with their live states and URLs, and a form to add one. */
export function ServicesSection(props: {
  orgId: string;
  deploymentId: string;
  services: Service[] | undefined;
}) {
  const { orgId, deploymentId } = props;
  return (
    <Section id="deployment-services" title="Services">
      {props.services?.length === 0 ? <p className={MUTED}>No service yet.</p> : null}
      <ul className="flex flex-col gap-2">
        {props.services?.map((service) => (
          <li key={service.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="flex min-w-0 flex-col">
              <Link
                to="/orgs/$orgId/deployments/$deploymentId/services/$serviceId"
                params={{ orgId, deploymentId, serviceId: service.id }}
                className={`font-medium ${LINK}`}
              >
                {service.name}
              </Link>
              <a href={service.url} target="_blank" rel="noreferrer" className={`text-sm ${LINK}`}>
                {service.url}
              </a>
            </span>
            <StateBadge state={service.state} reason={service.stateReason} />
          </li>
        ))}
      </ul>
      <h3 className="font-medium">Add a service</h3>
      <AddServiceForm orgId={orgId} deploymentId={deploymentId} />
    </Section>
  );
}
