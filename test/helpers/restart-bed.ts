/**
 * One `sparrow serve` process on a fixed port and `INTERNAL_URL`, a real
 * `sparrow agent` process and the real engine: the bed of the tests that
 * `kill -9` the server and start it again on the same port and database.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { spawnAgent } from './agent-process.js';
import { eventually } from './engine.js';
import { TEST_SECRETS_KEY } from './platform.js';
import { freePort } from './ports.js';
import { type FreshDatabase, freshDatabase, run, type Server, serve } from './sparrow-process.js';

export interface Answer<T> {
  status: number;
  body: T;
}

export class RestartBed {
  agent: ChildProcess | undefined;
  token = '';
  orgId = '';
  nodeId = '';

  private constructor(
    public server: Server,
    private readonly database: FreshDatabase,
    private readonly env: Record<string, string>,
  ) {}

  /** A fresh database with one account, the server, an org and a node with its agent online. */
  static async start(extraEnv: Record<string, string> = {}): Promise<RestartBed> {
    const database = await freshDatabase();
    const port = await freePort();
    const env = {
      ...database.env,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: String(port),
      INTERNAL_URL: `http://127.0.0.1:${port}`,
      JOB_LEASE_MS: '3000',
      JOB_POLL_MS: '200',
      ...extraEnv,
    };
    const email = `restart-${randomBytes(4).toString('hex')}@example.test`;
    const password = `restart ${randomBytes(8).toString('hex')}`;
    const created = await run(['user', 'create', '--email', email, '--password', password], env);
    if (created.code !== 0) throw new Error(`user create failed: ${created.stderr}`);
    const bed = new RestartBed(await serve(env), database, env);
    const login = await fetch(`${bed.server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    bed.token = ((await login.json()) as { token?: string }).token ?? '';
    const org = await bed.call<{ id: string }>('POST', '/orgs', { name: 'Restarts' });
    bed.orgId = org.body.id;
    const node = await bed.call<{ node: { id: string }; token: string }>(
      'POST',
      `/orgs/${bed.orgId}/nodes`,
      { name: 'restarted' },
    );
    bed.nodeId = node.body.node.id;
    bed.agent = spawnAgent(bed.server.url, node.body.token);
    await bed.waitOnline();
    return bed;
  }

  /** One request with the account's token. */
  async call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(`${this.server.url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { status: response.status, body: json ? JSON.parse(text) : text };
  }

  async waitOnline(timeoutMs = 60_000): Promise<void> {
    await eventually(
      async () => {
        const node = await this.call<{ status: string }>(
          'GET',
          `/orgs/${this.orgId}/nodes/${this.nodeId}`,
        );
        return node.body.status === 'online' ? true : undefined;
      },
      timeoutMs,
      'node online',
    );
  }

  /** `kill -9` the server and wait for it to be gone. */
  async kill(): Promise<void> {
    const { child } = this.server;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** Starts the server again on the same port, database and `INTERNAL_URL`. */
  async restart(): Promise<void> {
    this.server = await serve(this.env);
  }

  /** Whether the server process still runs. */
  alive(): boolean {
    return this.server.child.exitCode === null && this.server.child.signalCode === null;
  }

  async close(): Promise<void> {
    this.agent?.kill('SIGKILL');
    if (this.alive()) await this.server.stop();
    await this.database.close();
  }
}
