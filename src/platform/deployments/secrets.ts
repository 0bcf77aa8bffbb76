import { secretStore } from '../secrets/store.js';
import { MAX_DEPLOYMENT_SECRETS } from './schemas.js';

export const MAX_SERVICE_SECRETS = 100;

/** Deployment secrets: every service of the deployment gets them. */
export const deploymentSecrets = secretStore({
  table: 'deployment_secrets',
  context: 'deployment-secret',
  max: MAX_DEPLOYMENT_SECRETS,
  ownerLabel: 'A deployment',
});

/** A service's own secrets, which override its deployment's of the same name. */
export const serviceSecrets = secretStore({
  table: 'service_secrets',
  context: 'service-secret',
  max: MAX_SERVICE_SECRETS,
  ownerLabel: 'A service',
});
