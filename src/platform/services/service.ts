import { randomBytes } from 'node:crypto';
import { Cron } from 'croner';
import type { Config, ServiceUrls } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { OrgAccess } from '../access/org-access.js';
import { patchText } from '../common/patch.js';
import type { SecretInfo } from '../common/schemas.js';
import { deploymentInOrg } from '../deployments/lookup.js';
import type { NameQuery } from '../deployments/schemas.js';
import { membersAmong } from '../orgs/service.js';
import { projectInOrg } from '../projects/lookup.js';
import { serviceUrl } from '../routing/hosts.js';
import { announceRoutes } from '../routing/targets.js';
import { applySecretChanges } from '../secrets/org-writes.js';
import { serviceInDeployment } from './lookup.js';
import { queueContainerRemoval } from './moves.js';
import type { ServiceFields, ServiceRow } from './repository.js';
import * as repository from './repository.js';
import type { CreateServiceBody, Service, UpdateServiceBody } from './schemas.js';
import { serviceSecrets } from './secrets.js';
import type { CustomDomain, ServiceSource } from './tables.js';

/** The TXT record that proves control of a custom domain. */
export const CHALLENGE_LABEL = '_sparrow-challenge';

function toService(row: ServiceRow, secrets: SecretInfo[], urls: ServiceUrls): Service {
  const domain = row.custom_domain;
  return {
    id: row.id,
    orgId: row.org_id,
    deploymentId: row.deployment_id,
    name: row.name,
    url: serviceUrl(urls, row.id),
    source: row.source,
    command: row.command,
    port: row.port,
    env: row.env,
    secrets,
    replicas: row.replicas,
    healthCheck: row.health_check,
    accessControl: row.access_control,
    allowlist: row.allowlist,
    customDomain:
      domain === null
        ? null
        : {
            name: domain.name,
            verified: domain.verifiedAt !== null,
            verifiedAt: domain.verifiedAt,
            challenge: {
              type: 'TXT',
              name: `${CHALLENGE_LABEL}.${domain.name}`,
              value: domain.token,
            },
          },
    preDeploy: row.pre_deploy,
    cronJobs: row.cron_jobs,
    state: row.state,
    stateReason: row.state_reason,
    activeRunId: row.active_run_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function present(
  db: Database,
  config: Config,
  rows: readonly ServiceRow[],
): Promise<Service[]> {
  const secrets = await serviceSecrets.listOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toService(row, secrets.get(row.id) ?? [], config.serviceUrls));
}

async function presentOne(db: Database, config: Config, row: ServiceRow): Promise<Service> {
  const [service] = await present(db, config, [row]);
  if (service === undefined) throw new Error('the service vanished');
  return service;
}

function refused(error: unknown): unknown {
  if (isUniqueViolation(error, 'services_deployment_name_key')) {
    return conflict('service_name_taken', 'Another service of this deployment has this name');
  }
  if (isUniqueViolation(error, 'services_custom_domain_key')) {
    return conflict('domain_taken', 'Another service already has this custom domain');
  }
  return error;
}

/** A project source must name a project of the same organization. */
async function checkedSource(
  db: Database,
  access: OrgAccess,
  source: CreateServiceBody['source'],
): Promise<ServiceSource> {
  if (source.type === 'image') return source;
  await projectInOrg(db, access, source.projectId).catch(() => {
    throw badRequest('invalid_source', 'source.projectId is not a project of this organization', {
      projectId: source.projectId,
    });
  });
  return { type: 'project', projectId: source.projectId, branch: source.branch ?? null };
}

function checkedCronJobs(jobs: ServiceFields['cronJobs']): ServiceFields['cronJobs'] {
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) {
      throw badRequest('duplicate_cron_job', `The cron job ${job.name} is listed twice`, {
        name: job.name,
      });
    }
    names.add(job.name);
    try {
      new Cron(job.schedule, { paused: true, timezone: 'UTC' });
    } catch (error) {
      throw badRequest('invalid_schedule', `The schedule of ${job.name} is not valid`, {
        name: job.name,
        schedule: job.schedule,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return jobs;
}

async function checkedAllowlist(
  db: Database,
  orgId: string,
  allowlist: readonly string[],
): Promise<string[]> {
  const members = await membersAmong(db, orgId, allowlist);
  const strangers = allowlist.filter((userId) => !members.has(userId));
  if (strangers.length > 0) {
    throw badRequest(
      'not_an_org_member',
      'Only members of the organization can be on the allowlist',
      {
        userIds: strangers,
      },
    );
  }
  return [...allowlist];
}

/** A domain keeps its challenge and verification while it stays the same; a new one starts over. */
function nextDomain(current: CustomDomain | null, name: string | null): CustomDomain | null {
  if (name === null) return null;
  if (current?.name === name) return current;
  return { name, token: randomBytes(24).toString('base64url'), verifiedAt: null };
}

/** The fields after a create (from defaults) or a PATCH (from the current row), checked. */
async function settled(
  db: Database,
  access: OrgAccess,
  current: ServiceFields,
  input: UpdateServiceBody,
): Promise<ServiceFields> {
  const fields: ServiceFields = {
    name: input.name?.trim() ?? current.name,
    source:
      input.source === undefined ? current.source : await checkedSource(db, access, input.source),
    command: input.command === undefined ? current.command : (patchText(input.command) ?? null),
    port: input.port === undefined ? current.port : input.port,
    env: input.env ?? current.env,
    replicas: input.replicas ?? current.replicas,
    healthCheck:
      input.healthCheck === undefined
        ? current.healthCheck
        : input.healthCheck === null
          ? null
          : {
              path: input.healthCheck.path,
              intervalSeconds: input.healthCheck.intervalSeconds ?? 5,
              timeoutSeconds: input.healthCheck.timeoutSeconds ?? 2,
              graceSeconds: input.healthCheck.graceSeconds ?? 60,
            },
    accessControl: input.accessControl ?? current.accessControl,
    allowlist:
      input.allowlist === undefined
        ? current.allowlist
        : await checkedAllowlist(db, access.orgId, input.allowlist),
    customDomain:
      input.customDomain === undefined
        ? current.customDomain
        : nextDomain(current.customDomain, patchText(input.customDomain) ?? null),
    preDeploy:
      input.preDeploy === undefined
        ? current.preDeploy
        : input.preDeploy === null
          ? null
          : {
              command: input.preDeploy.command.trim(),
              timeoutSeconds: input.preDeploy.timeoutSeconds ?? 600,
            },
    cronJobs: input.cronJobs === undefined ? current.cronJobs : checkedCronJobs(input.cronJobs),
  };
  if (fields.healthCheck !== null && fields.port === null) {
    throw badRequest('port_required', 'A health check needs the port the service answers on');
  }
  if (fields.customDomain !== null && fields.port === null) {
    throw badRequest('port_required', 'A custom domain needs the port the service answers on');
  }
  return fields;
}

function fieldsOf(row: ServiceRow): ServiceFields {
  return {
    name: row.name,
    source: row.source,
    command: row.command,
    port: row.port,
    env: row.env,
    replicas: row.replicas,
    healthCheck: row.health_check,
    accessControl: row.access_control,
    allowlist: row.allowlist,
    customDomain: row.custom_domain,
    preDeploy: row.pre_deploy,
    cronJobs: row.cron_jobs,
  };
}

export async function listServices(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string | undefined,
  query: NameQuery,
): Promise<Service[]> {
  if (deploymentId !== undefined) await deploymentInOrg(db, access, deploymentId);
  const rows = await repository.listServices(db, {
    orgId: access.orgId,
    deploymentId,
    nameContains: query.q,
  });
  return present(db, config, rows);
}

export async function getService(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
): Promise<Service> {
  return presentOne(db, config, await serviceInDeployment(db, access, deploymentId, serviceId));
}

const DEFAULTS: Omit<ServiceFields, 'name' | 'source'> = {
  command: null,
  port: null,
  env: {},
  replicas: 1,
  healthCheck: null,
  accessControl: 'public',
  allowlist: [],
  customDomain: null,
  preDeploy: null,
  cronJobs: [],
};

/** Adds a service, `stopped` until its first deploy. */
export async function createService(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string,
  input: CreateServiceBody,
): Promise<Service> {
  await deploymentInOrg(db, access, deploymentId, true);
  const source = await checkedSource(db, access, input.source);
  const fields = await settled(db, access, { name: input.name, source, ...DEFAULTS }, input);
  const row = await repository
    .insertService(db, { id: newId(), orgId: access.orgId, deploymentId, ...fields })
    .catch((error) => {
      throw refused(error);
    });
  await applySecretChanges(db, config, access, serviceSecrets, row.id, input.secrets ?? []);
  return presentOne(db, config, row);
}

export async function updateService(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
  input: UpdateServiceBody,
): Promise<Service> {
  const current = await serviceInDeployment(db, access, deploymentId, serviceId, true);
  const fields = await settled(db, access, fieldsOf(current), input);
  const row = await repository.updateService(db, serviceId, fields).catch((error) => {
    throw refused(error);
  });
  await applySecretChanges(db, config, access, serviceSecrets, serviceId, input.secrets ?? []);
  // Access control, allowlist and domain are routing's too: every process reads them again.
  await announceRoutes(db, serviceId);
  return presentOne(db, config, row);
}

/** Removes a stopped (or failed) service with its secrets; a job removes containers it still has. */
export async function deleteService(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
): Promise<void> {
  const row = await serviceInDeployment(db, access, deploymentId, serviceId, true);
  if (row.state !== 'stopped' && row.state !== 'failed') {
    throw conflict('service_running', 'The service still runs: stop it first', { serviceId });
  }
  await queueContainerRemoval(db, [serviceId]);
  await repository.deleteService(db, serviceId);
  await announceRoutes(db, serviceId);
}
