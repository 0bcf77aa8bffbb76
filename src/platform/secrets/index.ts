import type { AppModule } from '../../module.js';
import { secretsKeyring } from './keyring.js';

/**
 * Loads (or on first start creates) the secrets key when the server starts,
 * so that an unreadable or unwritable key file stops the start with a message
 * naming SECRETS_KEY instead of failing the first request that writes a secret.
 */
export const secretsModule: AppModule = {
  name: 'secrets',
  async background(ctx) {
    const { keyId } = await secretsKeyring(ctx.config);
    ctx.log.info(
      { keyId, source: ctx.config.secretsKey === null ? 'data folder' : 'SECRETS_KEY' },
      'secrets key loaded',
    );
    return async () => {};
  },
};
