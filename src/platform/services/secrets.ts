import { secretStore } from '../secrets/store.js';

export const MAX_SERVICE_SECRETS = 100;

/** A service's own secrets, which override its deployment's of the same name. */
export const serviceSecrets = secretStore({
  table: 'service_secrets',
  context: 'service-secret',
  max: MAX_SERVICE_SECRETS,
  ownerLabel: 'A service',
});
