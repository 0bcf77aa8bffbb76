import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: null,
      registrationMode: 'invite',
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
      trustProxy: false,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/app',
      DATA_DIR: '/var/lib/sparrow',
      REGISTRATION_MODE: 'OPEN',
      PUBLIC_URL: 'https://sparrow.example/',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'true',
      SESSION_TTL_DAYS: '7',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/app',
      dataDir: '/var/lib/sparrow',
      registrationMode: 'open',
      publicUrl: 'https://sparrow.example',
      logLevel: 'debug',
      trustProxy: true,
      sessionTtlDays: 7,
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['REGISTRATION_MODE', 'sometimes'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'https://example.com/?x=1'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'perhaps'],
    ['BODY_LIMIT', '-1'],
    ['SECRETS_KEY', 'too-short'],
    ['SECRETS_KEY', 'ab'.repeat(31)],
    ['SECRETS_KEY', Buffer.alloc(16).toString('base64')],
    ['WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['WEBHOOK_RETRY_DELAYS_MS', '1,2,3'],
    ['WEBHOOK_RETRY_DELAYS_MS', '1,2,3,4,five'],
    ['WEBHOOK_TIMEOUT_MS', '5'],
    ['WEBHOOK_POLL_INTERVAL_MS', 'often'],
    ['IMPORT_BODY_LIMIT', '10'],
    ['IDP_ISSUER', 'not a url'],
    ['HTTP_IDLE_TIMEOUT_MS', '0'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', 'forever'],
    ['HTTP_HEADERS_TIMEOUT_MS', '10'],
    ['HTTP_REQUEST_TIMEOUT_MS', '-1'],
    ['HTTP_HEADERS_TIMEOUT_MS', '400000'],
    ['LOG_FORMAT', 'fancy'],
    ['METRICS_TOKEN', 'too-short'],
    ['METRICS_TOKEN', 'has spaces in the middle of it'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrowError(new RegExp(`^${name}: `));
  });

  it('reads SECRETS_KEY as hex or base64 and never repeats a bad value', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    expect(loadConfig({}).secretsKey).toBeNull();
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64url') }).secretsKey).toEqual(key);
    expect(() => loadConfig({ SECRETS_KEY: 'my-very-secret-passphrase' })).toThrowError(
      /^SECRETS_KEY: expected 32 bytes/,
    );
    expect(() => loadConfig({ SECRETS_KEY: 'my-very-secret-passphrase' })).not.toThrowError(
      /passphrase/,
    );
  });

  it('has the spec’s webhook defaults and reads the integration variables', () => {
    expect(loadConfig({})).toMatchObject({
      webhookAllowPrivate: false,
      webhookRetryDelaysMs: [10_000, 30_000, 120_000, 600_000, 3_600_000],
      webhookTimeoutMs: 10_000,
      idp: null,
    });
    const config = loadConfig({
      PUBLIC_URL: 'https://sparrow.example',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0, 1, 2, 3, 4',
      IDP_ISSUER: 'https://id.example/',
      IDP_CLIENT_ID: 'sparrow',
    });
    expect(config).toMatchObject({
      webhookAllowPrivate: true,
      webhookRetryDelaysMs: [0, 1, 2, 3, 4],
      idp: {
        issuer: 'https://id.example/',
        clientId: 'sparrow',
        clientSecret: null,
        redirectUri: 'https://sparrow.example/api/auth/idp/callback',
        name: 'id.example',
      },
    });
  });

  it('reads LOG_FORMAT and METRICS_TOKEN, off by default, and never repeats a bad token', () => {
    expect(loadConfig({})).toMatchObject({ logFormat: 'auto', metricsToken: null });
    const token = 'f'.repeat(16);
    expect(loadConfig({ LOG_FORMAT: 'JSON', METRICS_TOKEN: token })).toMatchObject({
      logFormat: 'json',
      metricsToken: token,
    });
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    const bad = () => loadConfig({ METRICS_TOKEN: 'secret-short' });
    expect(bad).toThrowError(/^METRICS_TOKEN: expected 16 to 512 visible ASCII characters/);
    expect(bad).not.toThrowError(/secret-short/);
  });

  it('reads ADMIN_EMAIL and ADMIN_PASSWORD together, with the registration rules', () => {
    const password = 'twelve chars';
    expect(loadConfig({}).adminAccount).toBeNull();
    expect(
      loadConfig({ ADMIN_EMAIL: ' admin@example.com ', ADMIN_PASSWORD: password }).adminAccount,
    ).toEqual({ email: 'admin@example.com', password });
    expect(() => loadConfig({ ADMIN_EMAIL: 'admin@example.com' })).toThrowError(
      /^ADMIN_PASSWORD: is required with ADMIN_EMAIL$/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: password })).toThrowError(
      /^ADMIN_EMAIL: is required with ADMIN_PASSWORD$/,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'admin', ADMIN_PASSWORD: password })).toThrowError(
      /^ADMIN_EMAIL: expected an e-mail address/,
    );
    const short = () => loadConfig({ ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'eleven char' });
    expect(short).toThrowError('ADMIN_PASSWORD: expected 12 to 256 characters, got 11');
    // Counted in characters as the API counts them, not in UTF-16 units.
    expect(() =>
      loadConfig({ ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: '🔑'.repeat(11) }),
    ).toThrowError(/got 11$/);
  });

  it('has HTTP timeouts that close idle connections within about 70 s', () => {
    expect(loadConfig({}).http).toEqual({
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
    });
    const config = loadConfig({
      HTTP_IDLE_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
      HTTP_HEADERS_TIMEOUT_MS: '900000',
      HTTP_REQUEST_TIMEOUT_MS: '0',
    });
    expect(config.http).toEqual({
      idleTimeoutMs: 1000,
      keepAliveTimeoutMs: 2000,
      headersTimeoutMs: 900_000,
      requestTimeoutMs: 0,
    });
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' }),
    ).toThrowError(/^HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS$/);
  });

  it('needs IDP_ISSUER and IDP_CLIENT_ID together', () => {
    expect(() => loadConfig({ IDP_ISSUER: 'https://id.example' })).toThrowError(/^IDP_CLIENT_ID: /);
    expect(() => loadConfig({ IDP_CLIENT_ID: 'x' })).toThrowError(/^IDP_ISSUER: /);
  });
});
