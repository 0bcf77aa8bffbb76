import { secretStore } from '../secrets/store.js';
import { MAX_DEPLOYMENT_SECRETS } from './schemas.js';

/** Deployment secrets: every service of the deployment gets them. */
export const deploymentSecrets = secretStore({
  table: 'deployment_secrets',
  context: 'deployment-secret',
  max: MAX_DEPLOYMENT_SECRETS,
  ownerLabel: 'A deployment',
});
