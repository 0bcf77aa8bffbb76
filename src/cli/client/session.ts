import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { type SparrowClient, unwrap } from '@sparrow/client';
import { clientFor, connect } from './api.js';
import { configPath, readConfig, writeConfig } from './config.js';
import { CliError, usageError } from './errors.js';
import { type OutputOptions, printOne } from './output.js';

/** Who a token is: an account (session token), or an organization's API key. */
type Identity =
  | { kind: 'user'; id: string; email: string; name: string }
  | { kind: 'key'; tokenPrefix: string; orgs: Array<{ id: string; name: string }> };

const API_KEY_PREFIX = 'spk_';

/**
 * Asks the API who the token is: `GET /auth/me` for a session token; an API
 * key is refused there (it is no person), so for a key `GET /api/orgs`, which
 * any key of the organization may read.
 */
async function identify(client: SparrowClient, token: string): Promise<Identity> {
  if (token.startsWith(API_KEY_PREFIX)) {
    const orgs = await unwrap(client.GET('/api/orgs'));
    return {
      kind: 'key',
      tokenPrefix: token.slice(0, API_KEY_PREFIX.length + 4),
      orgs: orgs.map(({ id, name }) => ({ id, name })),
    };
  }
  const user = await unwrap(client.GET('/auth/me'));
  return { kind: 'user', id: user.id, email: user.email, name: user.name };
}

function describe(identity: Identity): string {
  if (identity.kind === 'user') return `${identity.name} <${identity.email}>`;
  const orgs = identity.orgs.map((org) => org.name).join(', ');
  return `API key ${identity.tokenPrefix}… of ${orgs || 'no organization'}`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** One line read on the terminal; `hidden` echoes nothing (a password). */
async function prompt(question: string, hidden: boolean): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  // The interface puts the terminal in raw mode (no echo by the terminal itself):
  // only then is the question asked, so nothing typed early is echoed.
  const rl = createInterface({
    input: process.stdin,
    output: hidden ? muted : process.stderr,
    terminal: true,
  });
  try {
    if (hidden) process.stderr.write(question);
    const answer = await rl.question(hidden ? '' : question);
    if (hidden) process.stderr.write('\n');
    return answer;
  } finally {
    rl.close();
  }
}

/** E-mail and password on the terminal, signed in with `POST /auth/login`: the session token. */
async function passwordLogin(url: string, email: string | undefined): Promise<string> {
  if (!process.stdin.isTTY) {
    throw usageError('No terminal to ask for a password on: pipe an API key with --token-stdin');
  }
  const address = email ?? (await prompt('E-mail: ', false)).trim();
  const password = await prompt('Password: ', true);
  const session = await unwrap(
    clientFor(url).POST('/auth/login', { body: { email: address, password } }),
  );
  return session.token;
}

export interface LoginOptions extends OutputOptions {
  name: string;
  tokenStdin?: boolean;
  email?: string;
}

export async function login(urlArgument: string | undefined, options: LoginOptions): Promise<void> {
  const path = configPath();
  const config = await readConfig(path);
  const rawUrl = urlArgument ?? process.env.SPARROW_URL ?? config.servers[options.name]?.url;
  if (rawUrl === undefined) throw usageError('Which server? Give its URL: sparrow login URL');
  let url: string;
  try {
    url = new URL(rawUrl).href.replace(/\/+$/, '');
  } catch {
    throw usageError(`Not a URL: ${rawUrl}`);
  }
  const token = options.tokenStdin ? await readStdin() : await passwordLogin(url, options.email);
  if (token === '') throw usageError('No token on standard input');
  const identity = await identify(clientFor(url, token), token);
  config.servers[options.name] = { url, token };
  config.current = options.name;
  await writeConfig(path, config);
  printOne(
    options,
    { name: options.name, url, identity },
    () => `Logged in to ${url} as ${describe(identity)} (saved as "${options.name}" in ${path})`,
  );
}

export async function logout(options: { name?: string }): Promise<void> {
  const path = configPath();
  const config = await readConfig(path);
  const name = options.name ?? config.current;
  const server = name === null ? undefined : config.servers[name];
  if (name === null || server === undefined) throw new CliError('Not logged in');
  // A session token is ended on the server too; an API key stays valid (revoke it with `keys revoke`).
  if (!server.token.startsWith(API_KEY_PREFIX)) {
    await clientFor(server.url, server.token)
      .POST('/auth/logout')
      .catch(() => undefined);
  }
  delete config.servers[name];
  if (config.current === name) config.current = Object.keys(config.servers)[0] ?? null;
  await writeConfig(path, config);
  process.stdout.write(`Logged out of ${server.url} ("${name}")\n`);
}

export async function whoami(options: OutputOptions): Promise<void> {
  const { client, credentials } = await connect();
  const identity = await identify(client, credentials.token);
  printOne(
    options,
    { url: credentials.url, source: credentials.source, identity },
    () =>
      `${describe(identity)} on ${credentials.url} (${credentials.source === 'environment' ? 'from SPARROW_TOKEN' : `login "${credentials.source}"`})`,
  );
}
