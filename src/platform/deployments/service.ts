import type { Config } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { OrgAccess } from '../access/org-access.js';
import { patchText } from '../common/patch.js';
import type { SecretInfo } from '../common/schemas.js';
import { applySecretChanges } from '../secrets/org-writes.js';
import { queueContainerRemoval } from '../services/moves.js';
import * as serviceRows from '../services/repository.js';
import type { ServiceState } from '../services/tables.js';
import { deploymentInOrg } from './lookup.js';
import type { DeploymentRow } from './repository.js';
import * as repository from './repository.js';
import type {
  CreateDeploymentBody,
  Deployment,
  NameQuery,
  UpdateDeploymentBody,
} from './schemas.js';
import { deploymentSecrets } from './secrets.js';

/** A deployment's state summed up from its services' (see the schema's description). */
export function summedState(states: readonly ServiceState[]): Deployment['state'] {
  if (states.length === 0) return 'empty';
  const [first] = states;
  if (first !== undefined && states.every((state) => state === first)) return first;
  for (const state of ['failed', 'deploying', 'stopping'] as const) {
    if (states.includes(state)) return state;
  }
  return 'partial';
}

function toDeployment(
  row: DeploymentRow,
  secrets: SecretInfo[],
  states: readonly ServiceState[],
): Deployment {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    env: row.env,
    secrets,
    state: summedState(states),
    serviceCount: states.length,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function present(db: Database, rows: readonly DeploymentRow[]): Promise<Deployment[]> {
  const ids = rows.map((row) => row.id);
  const [secrets, states] = await Promise.all([
    deploymentSecrets.listOf(db, ids),
    serviceRows.serviceStatesOf(db, ids),
  ]);
  return rows.map((row) => toDeployment(row, secrets.get(row.id) ?? [], states.get(row.id) ?? []));
}

async function presentOne(db: Database, row: DeploymentRow): Promise<Deployment> {
  const [deployment] = await present(db, [row]);
  if (deployment === undefined) throw new Error('the deployment vanished');
  return deployment;
}

function nameTaken(error: unknown): unknown {
  return isUniqueViolation(error, 'deployments_org_name_key')
    ? conflict('deployment_name_taken', 'Another deployment of this organization has this name')
    : error;
}

export async function listDeployments(
  db: Database,
  access: OrgAccess,
  query: NameQuery,
): Promise<Deployment[]> {
  return present(db, await repository.listDeployments(db, access.orgId, query.q));
}

export async function getDeployment(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
): Promise<Deployment> {
  return presentOne(db, await deploymentInOrg(db, access, deploymentId));
}

export async function createDeployment(
  db: Database,
  config: Config,
  access: OrgAccess,
  input: CreateDeploymentBody,
): Promise<Deployment> {
  const row = await repository
    .insertDeployment(db, {
      id: newId(),
      orgId: access.orgId,
      name: input.name.trim(),
      description: patchText(input.description) ?? null,
      env: input.env ?? {},
    })
    .catch((error) => {
      throw nameTaken(error);
    });
  await applySecretChanges(db, config, access, deploymentSecrets, row.id, input.secrets ?? []);
  return presentOne(db, row);
}

/** PATCH: only fields sent change; `env` is replaced whole; blank text clears to null. */
export async function updateDeployment(
  db: Database,
  config: Config,
  access: OrgAccess,
  deploymentId: string,
  input: UpdateDeploymentBody,
): Promise<Deployment> {
  const current = await deploymentInOrg(db, access, deploymentId, true);
  const description = patchText(input.description);
  const row = await repository
    .updateDeployment(db, deploymentId, {
      name: input.name?.trim() ?? current.name,
      description: description === undefined ? current.description : description,
      env: input.env ?? current.env,
    })
    .catch((error) => {
      throw nameTaken(error);
    });
  await applySecretChanges(
    db,
    config,
    access,
    deploymentSecrets,
    deploymentId,
    input.secrets ?? [],
  );
  return presentOne(db, row);
}

/**
 * Deletes the deployment with its services and secrets. Refused while one
 * of its services runs or moves: stop the deployment first.
 */
export async function deleteDeployment(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
): Promise<void> {
  await deploymentInOrg(db, access, deploymentId, true);
  const states = (await serviceRows.serviceStatesOf(db, [deploymentId])).get(deploymentId) ?? [];
  if (states.some((state) => state !== 'stopped' && state !== 'failed')) {
    throw conflict('deployment_running', 'The deployment still runs: stop it first', {
      deploymentId,
    });
  }
  const services = await db
    .selectFrom('services')
    .select('id')
    .where('deployment_id', '=', deploymentId)
    .execute();
  await queueContainerRemoval(
    db,
    services.map((service) => service.id),
  );
  await repository.deleteDeployment(db, deploymentId);
}
