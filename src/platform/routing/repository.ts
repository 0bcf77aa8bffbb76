import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface ServiceRoute {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
}

/**
 * What routing reads of a service. The services table is the deployments
 * module's; these two reads are the whole of routing's use of it.
 */
const columns = ['id', 'org_id', 'deployment_id', 'access_control', 'allowlist'] as const;

function toRoute(row: {
  id: string;
  org_id: string;
  deployment_id: string;
  access_control: 'public' | 'private';
  allowlist: string[];
}): ServiceRoute {
  return {
    id: row.id,
    orgId: row.org_id,
    deploymentId: row.deployment_id,
    accessControl: row.access_control,
    allowlist: row.allowlist,
  };
}

export async function serviceRoute(db: Database, serviceId: string): Promise<ServiceRoute | null> {
  const row = await db
    .selectFrom('services')
    .select(columns)
    .where('id', '=', serviceId)
    .executeTakeFirst();
  return row === undefined ? null : toRoute(row);
}

/** The service whose custom domain is `name` and verified; an unverified domain routes nowhere. */
export async function serviceIdOfDomain(db: Database, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('services')
    .select('id')
    .where(sql<string>`custom_domain->>'name'`, '=', name)
    .where(sql<string>`custom_domain->>'verifiedAt'`, 'is not', null)
    .executeTakeFirst();
  return row?.id ?? null;
}
