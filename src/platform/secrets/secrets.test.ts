import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers/app.js';
import { createUser } from '../../../test/helpers/factories.js';
import { ConfigError, loadConfig } from '../../config.js';
import { decryptUserSecrets } from '../users/service.js';
import { decryptSecret, encryptSecret } from './cipher.js';
import { secretsModule } from './index.js';
import { SECRETS_KEY_FILE, secretsKeyring } from './keyring.js';

const KEY = randomBytes(32);

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'sparrow-secrets-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('cipher', () => {
  it('round-trips with AES-256-GCM and a fresh nonce for every value', async () => {
    const keyring = await secretsKeyring(loadConfig({ SECRETS_KEY: KEY.toString('hex') }));
    const one = encryptSecret(keyring, 'päss wörd ✓', 'ctx');
    const two = encryptSecret(keyring, 'päss wörd ✓', 'ctx');
    expect(one.nonce).not.toBe(two.nonce);
    expect(one.ciphertext).not.toBe(two.ciphertext);
    expect(Buffer.from(one.nonce, 'base64')).toHaveLength(12);
    expect(one.keyId).toBe(keyring.keyId);
    expect(decryptSecret(keyring, one, 'ctx')).toBe('päss wörd ✓');
    expect(decryptSecret(keyring, encryptSecret(keyring, '', 'ctx'), 'ctx')).toBe('');
  });

  it('refuses another context, an altered ciphertext and another key', async () => {
    const keyring = await secretsKeyring(loadConfig({ SECRETS_KEY: KEY.toString('base64') }));
    const stored = encryptSecret(keyring, 'value', 'project-secret:a:NAME');
    expect(() => decryptSecret(keyring, stored, 'project-secret:b:NAME')).toThrowError(
      expect.objectContaining({ code: 'secret_undecryptable' }),
    );
    const bytes = Buffer.from(stored.ciphertext, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const altered = { ...stored, ciphertext: bytes.toString('base64') };
    expect(() => decryptSecret(keyring, altered, 'project-secret:a:NAME')).toThrowError(
      expect.objectContaining({ code: 'secret_undecryptable' }),
    );
    expect(() =>
      decryptSecret(keyring, { ...stored, ciphertext: 'AA==' }, 'project-secret:a:NAME'),
    ).toThrowError(expect.objectContaining({ code: 'secret_undecryptable' }));
    const other = await secretsKeyring(
      loadConfig({ SECRETS_KEY: randomBytes(32).toString('hex') }),
    );
    expect(other.keyId).not.toBe(keyring.keyId);
    expect(() => decryptSecret(other, stored, 'project-secret:a:NAME')).toThrowError(
      expect.objectContaining({ code: 'secrets_key_mismatch' }),
    );
  });
});

describe('the secrets key without SECRETS_KEY', () => {
  it('is generated into DATA_DIR/secrets.key (mode 0600) on first use and reused after', async () => {
    const dataDir = join(folder, 'generated');
    const first = await secretsKeyring(loadConfig({ DATA_DIR: dataDir }));
    const path = join(dataDir, SECRETS_KEY_FILE);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64')).toEqual(first.key);
    const second = await secretsKeyring(loadConfig({ DATA_DIR: dataDir }));
    expect(second.key).toEqual(first.key);
    expect(second.keyId).toBe(first.keyId);
  });

  it('is created when the server starts (the module background task)', async () => {
    const dataDir = join(folder, 'started');
    const t = await createTestApp({ DATA_DIR: dataDir });
    try {
      const stop = await secretsModule.background?.(t.ctx);
      await stop?.();
      expect((await stat(join(dataDir, SECRETS_KEY_FILE))).isFile()).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('stops with an error naming SECRETS_KEY when the file is bad or cannot be written', async () => {
    const badDir = join(folder, 'bad');
    await mkdir(badDir);
    await writeFile(join(badDir, SECRETS_KEY_FILE), 'not a key\n');
    const bad = secretsKeyring(loadConfig({ DATA_DIR: badDir }));
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    await expect(bad).rejects.toThrowError(/^SECRETS_KEY: .*does not hold a valid 32-byte key/);

    // A data folder below a regular file cannot be created, not even by root.
    const blocker = join(folder, 'a-file');
    await writeFile(blocker, '');
    const unwritable = secretsKeyring(loadConfig({ DATA_DIR: join(blocker, 'data') }));
    await expect(unwritable).rejects.toBeInstanceOf(ConfigError);
    await expect(unwritable).rejects.toThrowError(/^SECRETS_KEY: .*a-file\/data\/secrets\.key/);
  });

  it('decrypts what an app stored with the key it generated, after a restart', async () => {
    const dataDir = join(folder, 'restart');
    const first = await createTestApp({ DATA_DIR: dataDir });
    const user = await createUser(first);
    const value = `restart-${randomBytes(6).toString('hex')}`;
    const created = await first.api.post(
      '/users/me/secrets',
      { name: 'PERSISTENT', value },
      { token: user.token },
    );
    expect(created.status).toBe(201);
    // After a restart the configuration is read anew: the key comes from the file again.
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(await decryptUserSecrets(first.db, second, user.user.id)).toEqual([
      { name: 'PERSISTENT', value },
    ]);
    await first.close();
  });
});
