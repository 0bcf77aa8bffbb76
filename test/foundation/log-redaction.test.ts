import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AgentConnection } from '../../src/agent/connection.js';
import { Runtime } from '../../src/agent/runtime.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { connectFakeAgent } from '../helpers/fake-agent.js';
import { createOrg, TEST_SECRETS_KEY, type TestOrg } from '../helpers/platform.js';

/**
 * The server's log at its default level, read from the logger's destination:
 * no credential sent in a query string may reach it, whichever route it was
 * sent to, and the agent sends its node token in a header.
 */
describe('credentials in the server log', () => {
  const lines: string[] = [];
  let t: TestApp;
  let baseUrl: string;
  let owner: TestUser;
  let org: TestOrg;
  const agents: AgentConnection[] = [];

  beforeAll(async () => {
    t = await createTestApp({ SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'info' }, [], {
      logStream: { write: (line: string) => lines.push(line) },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await createUser(t);
    org = await createOrg(t, owner);
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    await t?.close();
  });

  async function registerNode(name: string): Promise<{ id: string; token: string }> {
    const response = await t.api.post(`/orgs/${org.id}/nodes`, { name }, { token: owner.token });
    expect(response.status).toBe(201);
    return { id: response.body.node.id, token: response.body.token };
  }

  async function nodeStatus(nodeId: string): Promise<string> {
    const response = await t.api.get(`/orgs/${org.id}/nodes/${nodeId}`, { token: owner.token });
    return response.body.status;
  }

  async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('the real agent connects with its token in a header, and the token is not logged', async () => {
    const node = await registerNode('header-agent');
    // No engine at this address: the agent still says hello (engine unreachable).
    const runtime = new Runtime(new Docker({ socketPath: '/nonexistent/sparrow-test.sock' }));
    const agent = new AgentConnection({ server: baseUrl, token: node.token, runtime });
    agents.push(agent);
    const welcomed = new Promise<void>((resolve) => agent.once('welcome', () => resolve()));
    agent.start();
    await welcomed;
    await until(async () => (await nodeStatus(node.id)) === 'online', 'the node to be online');
    await until(() => lines.some((line) => line.includes('agent connected')), 'the log line');
    expect(lines.some((line) => line.includes('/api/agent/connect'))).toBe(true);
    expect(lines.filter((line) => line.includes(node.token))).toEqual([]);
  });

  it('a raw handshake with only the Authorization header connects', async () => {
    const node = await registerNode('raw-header');
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/agent/connect`, {
      headers: { authorization: `Bearer ${node.token}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.close();
    const refused = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/agent/connect`, {
      headers: { authorization: 'Bearer snt_not-a-node-token' },
    });
    refused.on('error', () => {});
    const status = await new Promise<number>((resolve) => {
      refused.once('unexpected-response', (_request, response) =>
        resolve(response.statusCode ?? 0),
      );
      refused.once('open', () => resolve(101));
    });
    refused.terminate();
    expect(status).toBe(401);
  });

  it('the query form still connects, and its token is redacted from every line', async () => {
    const node = await registerNode('query-agent');
    const agent = connectFakeAgent(baseUrl, node.token);
    await agent.welcomed;
    await agent.close();
    // A plain request (no upgrade) with the token, and credentials sent to other routes.
    const plain = await fetch(`${baseUrl}/api/agent/connect?token=${node.token}`);
    expect(plain.status).toBe(426);
    const secrets = ['spi_invitation-token-value', 'oauth-code-value', 'access-token-value'];
    await fetch(`${baseUrl}/api/auth/invitation?token=${secrets[0]}`);
    await fetch(`${baseUrl}/api/nothing?code=${secrets[1]}&ACCESS_TOKEN=${secrets[2]}`);
    await until(
      () => lines.some((line) => line.includes('/api/nothing?code=[REDACTED]')),
      'the last request in the log',
    );
    const leaks = lines.filter((line) =>
      [node.token, ...secrets].some((secret) => line.includes(secret)),
    );
    expect(leaks).toEqual([]);
    expect(lines.some((line) => line.includes('/api/agent/connect?token=[REDACTED]'))).toBe(true);
  });
});
