import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import { announceRoutes } from '../routing/targets.js';
import { serviceInDeployment } from './lookup.js';
import type { Service } from './schemas.js';
import { CHALLENGE_LABEL, getService } from './service.js';

/** What the private-access check and the routing need of a service, by id. */
export interface ServiceAccessSettings {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
  /** The custom domain once verified; null otherwise. */
  verifiedDomain: string | null;
}

interface SettingsRow {
  id: string;
  org_id: string;
  deployment_id: string;
  access_control: 'public' | 'private';
  allowlist: string[];
  verified_domain: string | null;
}

function toSettings(row: SettingsRow): ServiceAccessSettings {
  return {
    id: row.id,
    orgId: row.org_id,
    deploymentId: row.deployment_id,
    accessControl: row.access_control,
    allowlist: row.allowlist,
    verifiedDomain: row.verified_domain,
  };
}

const SELECT = sql`select id, org_id, deployment_id, access_control, allowlist,
    case when custom_domain->>'verifiedAt' is not null then custom_domain->>'name' end as verified_domain
  from services`;

/** A service's access settings, or undefined when there is no such service. */
export async function serviceAccessSettings(
  db: Database,
  serviceId: string,
): Promise<ServiceAccessSettings | undefined> {
  const { rows } = await sql<SettingsRow>`${PREPARED} ${SELECT} where id = ${serviceId}`.execute(
    db,
  );
  const row = rows[0];
  return row === undefined ? undefined : toSettings(row);
}

/** The service whose custom domain is this one and verified, if any. */
export async function serviceByVerifiedDomain(
  db: Database,
  domain: string,
): Promise<ServiceAccessSettings | undefined> {
  const { rows } = await sql<SettingsRow>`${PREPARED} ${SELECT}
    where custom_domain->>'name' = ${domain} and custom_domain->>'verifiedAt' is not null`.execute(
    db,
  );
  const row = rows[0];
  return row === undefined ? undefined : toSettings(row);
}

/** The TXT record a service's custom domain must publish, with whether it is verified. */
export interface DomainChallenge {
  domain: string;
  recordName: string;
  value: string;
  verified: boolean;
}

/** The challenge of a service's custom domain; 409 `no_custom_domain` without one. */
export async function domainChallenge(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
): Promise<DomainChallenge> {
  const row = await serviceInDeployment(db, access, deploymentId, serviceId);
  const domain = row.custom_domain;
  if (domain === null) {
    throw conflict('no_custom_domain', 'The service has no custom domain to verify');
  }
  return {
    domain: domain.name,
    recordName: `${CHALLENGE_LABEL}.${domain.name}`,
    value: domain.token,
    verified: domain.verifiedAt !== null,
  };
}

/**
 * Marks the domain verified, if the service still has this domain with this
 * challenge (a PATCH in the meantime starts over: 409 `domain_changed`).
 */
export async function markDomainVerified(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
  challenge: DomainChallenge,
): Promise<Service> {
  const row = await serviceInDeployment(db, access, deploymentId, serviceId, true);
  const domain = row.custom_domain;
  if (domain === null || domain.name !== challenge.domain || domain.token !== challenge.value) {
    throw conflict(
      'domain_changed',
      'The custom domain changed during its verification; try again',
    );
  }
  if (domain.verifiedAt === null) {
    await db
      .updateTable('services')
      .set({
        custom_domain: JSON.stringify({ ...domain, verifiedAt: new Date().toISOString() }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', serviceId)
      .execute();
    await announceRoutes(db, serviceId);
  }
  return getService(db, config, access, deploymentId, serviceId);
}
