import type { Env } from '../../agent/protocol/schemas.js';
import type { AppContext } from '../../module.js';
import { findDeployment } from '../deployments/repository.js';
import { deploymentSecrets } from '../deployments/secrets.js';
import type { ServiceRow } from './repository.js';
import { serviceSecrets } from './secrets.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A service's containers' environment: the deployment's variables, then its
 * secrets, then the service's variables, then its secrets (a later one wins
 * on a name), then Sparrow's own. Values are decrypted on their way to the
 * agent only.
 */
export async function serviceEnvironment(ctx: AppContext, service: ServiceRow): Promise<Env> {
  const deployment = await findDeployment(ctx.db, service.org_id, service.deployment_id);
  const env: Env = {};
  const put = (name: string, value: string) => {
    if (ENV_NAME.test(name)) env[name] = value;
  };
  for (const [name, value] of Object.entries(deployment?.env ?? {})) put(name, value);
  for (const secret of await deploymentSecrets.decrypt(ctx.db, ctx.config, service.deployment_id)) {
    put(secret.name, secret.value);
  }
  for (const [name, value] of Object.entries(service.env)) put(name, value);
  for (const secret of await serviceSecrets.decrypt(ctx.db, ctx.config, service.id)) {
    put(secret.name, secret.value);
  }
  if (service.port !== null) put('PORT', String(service.port));
  put('SPARROW_SERVICE_ID', service.id);
  put('SPARROW_DEPLOYMENT_ID', service.deployment_id);
  put('SPARROW_ORG_ID', service.org_id);
  return env;
}

/** The labels every container of a service carries. */
export function serviceLabels(service: ServiceRow, runId: string): Record<string, string> {
  return {
    'sparrow.org': service.org_id,
    'sparrow.deployment': service.deployment_id,
    'sparrow.service': service.id,
    'sparrow.run': runId,
  };
}
