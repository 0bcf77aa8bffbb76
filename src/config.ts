import { join, resolve } from 'node:path';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './accounts/password.js';
import { Email } from './accounts/schemas.js';
import { validatorCompiler } from './http/validation.js';

export type RegistrationMode = 'invite' | 'open';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** `auto`: `pretty` when standard output is a terminal, `json` otherwise. */
export type LogFormat = 'auto' | 'pretty' | 'json';

export interface Config {
  /** TCP port of the HTTP server. */
  port: number;
  /** Interface the HTTP server binds to. */
  host: string;
  /** PostgreSQL connection string; null selects the embedded PGlite database. */
  databaseUrl: string | null;
  /** Maximum connections in the PostgreSQL pool. */
  databasePoolSize: number;
  /** Folder for the embedded database and other local state. */
  dataDir: string;
  registrationMode: RegistrationMode;
  /** Address users reach the service at, without a trailing slash. */
  publicUrl: string;
  logLevel: LogLevel;
  /** Log lines as JSON objects, or readable text (pino-pretty). */
  logFormat: LogFormat;
  /** The bearer token `/metrics` requires; null: metrics are off (404). */
  metricsToken: string | null;
  /** The account `serve` creates when the database has none yet; null: none. */
  adminAccount: AdminAccount | null;
  /** Largest accepted JSON request body, in bytes. */
  bodyLimit: number;
  /** Timeouts of the HTTP server (see `HttpTimeouts`). */
  http: HttpTimeouts;
  /** Lifetime of a user session, in days. */
  sessionTtlDays: number;
  /** Trust X-Forwarded-* headers (set when running behind a reverse proxy). */
  trustProxy: boolean;
  /** Folder holding uploaded file bytes. */
  filesDir: string;
  /** Largest accepted file upload, in bytes. */
  maxUploadBytes: number;
  /**
   * The 32-byte key that encrypts stored secrets (AES-256-GCM). Null: the key
   * is read from, or on first start generated into, `DATA_DIR/secrets.key`.
   */
  secretsKey: Buffer | null;
  /** Largest accepted import request body, in bytes (files travel inside it as base64). */
  importBodyLimit: number;
  /** Let webhooks reach loopback and private addresses (tests, closed networks). */
  webhookAllowPrivate: boolean;
  /** The five waits before retries 2 to 6 of a failed delivery, in milliseconds. */
  webhookRetryDelaysMs: readonly number[];
  /** Time allowed for one delivery request, in milliseconds. */
  webhookTimeoutMs: number;
  /** How often the dispatcher looks for due deliveries when nothing wakes it. */
  webhookPollIntervalMs: number;
  /** A running job's lease: past it without renewal, another server process takes the job over. */
  jobLeaseMs: number;
  /** How often job runners look for work without a notification (always, on PGlite). */
  jobPollMs: number;
  /** Log sockets (job runs, image builds) one user or key may hold open at once, per server process. */
  logFollowersPerCaller: number;
  /** How long a service's replaced replicas keep serving what they hold before they are removed. */
  serviceDrainMs: number;
  /** How often each server process looks for due cron jobs of running services. */
  cronTickMs: number;
  /** Where the other server processes reach this one; null: from the listen address. */
  internalUrl: string | null;
  /** The relay's credential between server processes; null: generated once, kept in the database. */
  relaySecret: string | null;
  /** The OpenID identity provider; null when provider sign-in is off. */
  idp: IdpConfig | null;
  /** DNS_SERVERS: the resolvers custom-domain verification asks (`host:port`); empty: the system's. */
  dnsServers: readonly string[];
  /** Run a built-in agent for this machine's container engine, as the shared node `local`. */
  localAgent: boolean;
  /** The built-in agent's engine address (unix:// or tcp://); null: the agent's default search. */
  localAgentDockerHost: string | null;
  /** The image workers start from when their project has no current pre-built image. */
  workerImage: string;
  /** Where services are reached: `{scheme}://svc-{serviceId}.{domain}[:{port}]` (see `ServiceUrls`). */
  serviceUrls: ServiceUrls;
}

/**
 * How long the HTTP server waits on clients. None applies to a WebSocket once
 * upgraded, nor to a handler at work on a request received whole.
 */
export interface HttpTimeouts {
  /** HTTP_IDLE_TIMEOUT_MS: a connection silent this long, with no request being answered, is closed. */
  idleTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: how long a connection is kept open for the next request after an answer. */
  keepAliveTimeoutMs: number;
  /** HTTP_HEADERS_TIMEOUT_MS: time allowed to receive a request's headers. */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: time allowed to receive a whole request, body included (0: no limit). */
  requestTimeoutMs: number;
}

export interface IdpConfig {
  /** The issuer; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** This service's client id at the provider: the audience of accepted id_tokens. */
  clientId: string;
  /** Client secret for the browser code flow; null for a public client (PKCE only). */
  clientSecret: string | null;
  /** Where the provider sends the browser back to after sign-in. */
  redirectUri: string;
  /** What the sign-in button calls the provider (IDP_NAME; default: the issuer's host). */
  name: string;
}

/** ADMIN_EMAIL and ADMIN_PASSWORD: the first account, created once (see `cli/bootstrap.ts`). */
export interface AdminAccount {
  email: string;
  password: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = allowed.find((candidate) => candidate === raw.toLowerCase());
  if (match === undefined) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return match;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function internalUrl(env: Env): string | null {
  const raw = read(env, 'INTERNAL_URL');
  return raw === undefined ? null : httpUrl('INTERNAL_URL', raw).replace(/\/+$/, '');
}

/** `host:port` entries (`[v6]:port` for IPv6, the port optional), as node's Resolver takes them. */
function dnsServers(env: Env): readonly string[] {
  const raw = read(env, 'DNS_SERVERS');
  if (raw === undefined) return [];
  const servers = raw.split(',').map((part) => part.trim());
  for (const server of servers) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[0-9a-zA-Z.-]+)(:\d{1,5})?$/.test(server)) {
      throw new ConfigError('DNS_SERVERS', `expected comma-separated host:port, got "${server}"`);
    }
  }
  return servers;
}

function relaySecret(env: Env): string | null {
  const raw = read(env, 'RELAY_SECRET');
  if (raw === undefined) return null;
  if (raw.length < 32) throw new ConfigError('RELAY_SECRET', 'must be at least 32 characters');
  return raw;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `expected an http or https URL, got "${raw}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(name, 'must not carry a query string or fragment');
  }
  return url.toString().replace(/\/+$/, '');
}

function databaseUrl(env: Env): string | null {
  const raw = read(env, 'DATABASE_URL');
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'expected a postgres:// connection string');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', `expected a postgres:// URL, got "${url.protocol}//"`);
  }
  return raw;
}

export const SECRETS_KEY_BYTES = 32;

/**
 * A secrets key as text: 64 hex digits, or base64 / base64url of 32 bytes
 * (`openssl rand -base64 32`). Null when the text is neither.
 */
export function decodeSecretsKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return null;
  const key = Buffer.from(value, 'base64');
  return key.length === SECRETS_KEY_BYTES ? key : null;
}

function secretsKey(env: Env): Buffer | null {
  const raw = read(env, 'SECRETS_KEY');
  if (raw === undefined) return null;
  const key = decodeSecretsKey(raw);
  // The message never repeats the value: it is a secret.
  if (key === null) {
    throw new ConfigError(
      'SECRETS_KEY',
      `expected ${SECRETS_KEY_BYTES} bytes as 64 hex digits or base64 (such as the output of \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}

const METRICS_TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/;

function metricsToken(env: Env): string | null {
  const raw = read(env, 'METRICS_TOKEN');
  if (raw === undefined) return null;
  // The message never repeats the value: it is a secret.
  if (!METRICS_TOKEN_SHAPE.test(raw)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      'expected 16 to 512 visible ASCII characters without spaces (such as the output of `openssl rand -hex 32`)',
    );
  }
  return raw;
}

/** The address rule of the registration API (its `Email` schema, checked by its validator). */
const isEmail = validatorCompiler({ schema: Email, method: 'POST', url: '', httpPart: 'body' });

function adminAccount(env: Env): AdminAccount | null {
  const email = read(env, 'ADMIN_EMAIL');
  const password = env.ADMIN_PASSWORD;
  if (email === undefined && (password === undefined || password === '')) return null;
  if (email === undefined) throw new ConfigError('ADMIN_EMAIL', 'is required with ADMIN_PASSWORD');
  if (password === undefined || password === '') {
    throw new ConfigError('ADMIN_PASSWORD', 'is required with ADMIN_EMAIL');
  }
  if (isEmail(email) !== true) {
    throw new ConfigError('ADMIN_EMAIL', `expected an e-mail address, got "${email}"`);
  }
  // Counted as the API counts (code points), never repeated: it is a secret.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      `expected ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, got ${length}`,
    );
  }
  return { email, password };
}

function httpTimeouts(env: Env): HttpTimeouts {
  const day = 86_400_000;
  const timeouts = {
    idleTimeoutMs: integer(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000, 100, day),
    // Above the 60 s idle timeout of common proxies and load balancers, which must close first.
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 100, day),
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 30_000, 100, day),
    // Room for an upload of MAX_UPLOAD_BYTES on a slow link; it ends once the request is in.
    requestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 300_000, 0, day),
  };
  if (timeouts.requestTimeoutMs > 0 && timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return timeouts;
}

/** The spec's backoff: 10 s, 30 s, 2 min, 10 min, 1 h. */
export const DEFAULT_RETRY_DELAYS_MS = [10_000, 30_000, 120_000, 600_000, 3_600_000] as const;

function retryDelays(env: Env): readonly number[] {
  const name = 'WEBHOOK_RETRY_DELAYS_MS';
  const raw = read(env, name);
  if (raw === undefined) return DEFAULT_RETRY_DELAYS_MS;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length !== 5 || !parts.every((part) => /^\d{1,9}$/.test(part))) {
    throw new ConfigError(name, `expected five comma-separated integers, got "${raw}"`);
  }
  return parts.map(Number);
}

function idpConfig(env: Env, publicUrl: string): IdpConfig | null {
  const issuer = read(env, 'IDP_ISSUER');
  const clientId = read(env, 'IDP_CLIENT_ID');
  if (issuer === undefined && clientId === undefined) return null;
  if (issuer !== undefined) httpUrl('IDP_ISSUER', issuer);
  if (issuer === undefined) throw new ConfigError('IDP_ISSUER', 'is required with IDP_CLIENT_ID');
  if (clientId === undefined) throw new ConfigError('IDP_CLIENT_ID', 'is required with IDP_ISSUER');
  const redirect = read(env, 'IDP_REDIRECT_URI');
  return {
    // Kept exactly as given: it must equal the `iss` claim, trailing slash and all.
    issuer,
    clientId,
    clientSecret: read(env, 'IDP_CLIENT_SECRET') ?? null,
    redirectUri:
      redirect === undefined
        ? `${publicUrl}/api/auth/idp/callback`
        : httpUrl('IDP_REDIRECT_URI', redirect),
    name: read(env, 'IDP_NAME') ?? new URL(issuer).host,
  };
}

/**
 * The service URLs the server answers for and shows in Service records.
 * `domain` (SERVICE_DOMAIN, default `svc.localhost`: every `*.localhost` name
 * resolves to loopback, so it works on one machine with no DNS); `scheme`
 * and `port` (SERVICE_URL_SCHEME, SERVICE_URL_PORT) only shape the URL shown,
 * and default to PUBLIC_URL's: TLS and the port are the front proxy's.
 */
export interface ServiceUrls {
  domain: string;
  scheme: 'http' | 'https';
  /** null: the scheme's default port, left out of the URL. */
  port: number | null;
}

const DOMAIN =
  /^(?=.{1,200}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function serviceUrls(env: Env, publicUrl: string): ServiceUrls {
  const domain = (read(env, 'SERVICE_DOMAIN') ?? 'svc.localhost').toLowerCase().replace(/\.$/, '');
  if (!DOMAIN.test(domain)) {
    throw new ConfigError('SERVICE_DOMAIN', `expected a domain name, got "${domain}"`);
  }
  const base = new URL(publicUrl);
  const scheme = oneOf(
    env,
    'SERVICE_URL_SCHEME',
    ['http', 'https'],
    base.protocol === 'https:' ? 'https' : 'http',
  );
  const explicitPort = read(env, 'SERVICE_URL_PORT');
  const port =
    explicitPort === undefined
      ? base.port === ''
        ? null
        : Number(base.port)
      : integer(env, 'SERVICE_URL_PORT', 0, 0, 65535);
  const isDefault =
    port === 0 || (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443);
  return { domain, scheme, port: isDefault ? null : port };
}

/** Reads every setting from the environment once; a bad value throws a ConfigError naming it. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const publicUrlRaw = read(env, 'PUBLIC_URL');
  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data');
  const publicUrl =
    publicUrlRaw === undefined ? `http://localhost:${port}` : httpUrl('PUBLIC_URL', publicUrlRaw);
  return {
    port,
    host: read(env, 'HOST') ?? '0.0.0.0',
    databaseUrl: databaseUrl(env),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    dataDir,
    registrationMode: oneOf(env, 'REGISTRATION_MODE', ['invite', 'open'], 'invite'),
    publicUrl,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'pretty', 'json'], 'auto'),
    metricsToken: metricsToken(env),
    adminAccount: adminAccount(env),
    bodyLimit: integer(env, 'BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    http: httpTimeouts(env),
    sessionTtlDays: integer(env, 'SESSION_TTL_DAYS', 30, 1, 3650),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    filesDir: resolve(read(env, 'FILES_DIR') ?? join(dataDir, 'files')),
    maxUploadBytes: integer(env, 'MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
    secretsKey: secretsKey(env),
    importBodyLimit: integer(env, 'IMPORT_BODY_LIMIT', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetryDelaysMs: retryDelays(env),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookPollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 60_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 30_000, 300, 600_000),
    jobPollMs: integer(env, 'JOB_POLL_MS', 1000, 10, 60_000),
    logFollowersPerCaller: integer(env, 'LOG_FOLLOWERS_PER_CALLER', 32, 1, 100_000),
    serviceDrainMs: integer(env, 'SERVICE_DRAIN_MS', 10_000, 0, 600_000),
    cronTickMs: integer(env, 'CRON_TICK_MS', 1000, 50, 60_000),
    internalUrl: internalUrl(env),
    relaySecret: relaySecret(env),
    idp: idpConfig(env, publicUrl),
    dnsServers: dnsServers(env),
    localAgent: boolean(env, 'LOCAL_AGENT', false),
    localAgentDockerHost: read(env, 'LOCAL_AGENT_DOCKER_HOST') ?? null,
    workerImage: read(env, 'WORKER_IMAGE') ?? 'localhost/sparrow/workspace:v2',
    serviceUrls: serviceUrls(env, publicUrl),
  };
}
