import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

/** One stored login: the server's address and the token that signs in to it. */
export interface StoredServer {
  url: string;
  token: string;
}

/** `config.json`: the stored logins by name, and the one in use. */
export interface ClientConfig {
  servers: Record<string, StoredServer>;
  current: string | null;
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/sparrow/config.json`, else `~/.config/sparrow/config.json`. */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'sparrow', 'config.json');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function readConfig(path: string): Promise<ClientConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      return { servers: {}, current: null };
    }
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON: fix or remove it`);
  }
  const servers: Record<string, StoredServer> = {};
  const stored = isRecord(parsed) && isRecord(parsed.servers) ? parsed.servers : {};
  for (const [name, server] of Object.entries(stored)) {
    if (isRecord(server) && typeof server.url === 'string' && typeof server.token === 'string') {
      servers[name] = { url: server.url, token: server.token };
    }
  }
  const current = isRecord(parsed) && typeof parsed.current === 'string' ? parsed.current : null;
  return { servers, current };
}

/**
 * Written whole to a file beside it, then renamed over it: readable by its
 * owner only (0600, in a 0700 folder), since it holds tokens.
 */
export async function writeConfig(path: string, config: ClientConfig): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Where the credentials in use came from, for `whoami` and the errors. */
export interface Credentials {
  url: string;
  token: string;
  /** The stored login's name, or `environment` when SPARROW_TOKEN gave the token. */
  source: string;
}

/**
 * `SPARROW_URL` and `SPARROW_TOKEN` win over the stored login, each on its
 * own (a token from the environment against the stored server works too).
 */
export async function resolveCredentials(env: Env = process.env): Promise<Credentials> {
  const config = await readConfig(configPath(env));
  const stored = config.current === null ? undefined : config.servers[config.current];
  const url = env.SPARROW_URL || stored?.url;
  const token = env.SPARROW_TOKEN || stored?.token;
  if (url === undefined || token === undefined) {
    throw new CliError(
      'Not logged in: run `sparrow login URL`, or set SPARROW_URL and SPARROW_TOKEN',
    );
  }
  const source = env.SPARROW_TOKEN ? 'environment' : (config.current ?? 'environment');
  return { url: url.replace(/\/+$/, ''), token, source };
}
