import type { AddressInfo } from 'node:net';
import type Docker from 'dockerode';
import { expect } from 'vitest';
import { AgentConnection } from '../../src/agent/connection.js';
import { Runtime } from '../../src/agent/runtime.js';
import type { SuccessAt } from './api-types.js';
import type { TestApp } from './app.js';
import { eventually, removeLabelled } from './engine.js';
import { createUser, type TestUser } from './factories.js';
import { connectFakeAgent, type FakeAgent, type FakeRuntime } from './fake-agent.js';
import { createOrg, createPlatformTestApp, type TestOrg } from './platform.js';

/**
 * A platform app listening on a loopback port (agents and WebSocket clients
 * need a real socket), with an owner and an organization.
 */
export interface NodeTestBed {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  owner: TestUser;
  org: TestOrg;
  agents: AgentConnection[];
  close(): Promise<void>;
}

export async function createNodeTestBed(env: Record<string, string> = {}): Promise<NodeTestBed> {
  const t = await createPlatformTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const owner = await createUser(t);
  const org = await createOrg(t, owner);
  const bed: NodeTestBed = {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    owner,
    org,
    agents: [],
    close: async () => {
      await Promise.all(bed.agents.map((agent) => agent.stop()));
      await t.close();
    },
  };
  return bed;
}

export interface RegisteredNode {
  id: string;
  token: string;
}

export async function registerNode(bed: NodeTestBed, name: string): Promise<RegisteredNode> {
  const response = await bed.t.api.post(
    `/orgs/${bed.org.id}/nodes`,
    { name },
    { token: bed.owner.token },
  );
  expect(response.status).toBe(201);
  return { id: response.body.node.id, token: response.body.token };
}

/** The real agent, in process, on the test engine; stopped with the bed. */
export function startAgent(
  bed: NodeTestBed,
  docker: Docker,
  token: string,
  runtime = new Runtime(docker, { statsIntervalMs: 100 }),
): AgentConnection {
  const agent = new AgentConnection({
    server: bed.baseUrl,
    token,
    runtime,
    initialBackoffMs: 50,
    maxBackoffMs: 500,
  });
  bed.agents.push(agent);
  agent.start();
  return agent;
}

export async function nodeStatus(bed: NodeTestBed, nodeId: string): Promise<string> {
  const response = await bed.t.api.get(`/orgs/${bed.org.id}/nodes/${nodeId}`, {
    token: bed.owner.token,
  });
  return response.body.status;
}

export function waitForNodeStatus(bed: NodeTestBed, nodeId: string, status: string) {
  return eventually(
    async () => ((await nodeStatus(bed, nodeId)) === status ? true : undefined),
    20_000,
    `node ${status}`,
  );
}

/** Registers a node, starts its agent and waits until the server has it online. */
export async function onlineNode(bed: NodeTestBed, docker: Docker, name = 'node-1') {
  const node = await registerNode(bed, name);
  const agent = startAgent(bed, docker, node.token);
  await waitForNodeStatus(bed, node.id, 'online');
  return { ...node, agent };
}

/** Removes every container of workers this bed spawned (their label is the org). */
export async function removeOrgContainers(docker: Docker, org: TestOrg): Promise<void> {
  await removeLabelled(docker, { 'sparrow.org': org.id });
}

type WorkerPath = `/orgs/${string}/projects/${string}/workers/${string}`;

/** Polls a worker until it is in `state`; fails early when it settles elsewhere. */
export async function waitForWorker(
  bed: NodeTestBed,
  path: WorkerPath,
  state: string,
  timeoutMs = 60_000,
): Promise<SuccessAt<WorkerPath, 'get', '/api'>> {
  return eventually(
    async () => {
      const response = await bed.t.api.get(path, { token: bed.owner.token });
      const worker = response.body;
      if (worker.state === state) return worker;
      if (['failed', 'lost'].includes(worker.state) && state !== worker.state) {
        throw new Error(`worker ${worker.state}: ${worker.stateReason}`);
      }
      return undefined;
    },
    timeoutMs,
    `worker ${state}`,
  );
}

/** A project of the bed's organization, created by its owner; its id. */
export async function createProject(bed: NodeTestBed, name: string): Promise<string> {
  const project = await bed.t.api.post(
    `/orgs/${bed.org.id}/projects`,
    { name },
    { token: bed.owner.token },
  );
  return project.body.id;
}

/**
 * Registers a node and connects a fake agent for it to `server` (the bed's
 * URL or another process's), waiting until it is welcomed and online. The
 * agent goes into `agents` (when given) as soon as it connects, so the file
 * closes it even when the wait fails.
 */
export async function onlineFakeNode(
  bed: NodeTestBed,
  name: string,
  server: string,
  runtime: FakeRuntime,
  agents?: FakeAgent[],
): Promise<{ id: string; agent: FakeAgent }> {
  const created = await bed.t.api.post(
    `/orgs/${bed.org.id}/nodes`,
    { name },
    { token: bed.owner.token },
  );
  const id: string = created.body.node.id;
  const agent = connectFakeAgent(server, created.body.token, runtime);
  agents?.push(agent);
  await agent.welcomed;
  await waitForNodeStatus(bed, id, 'online');
  return { id, agent };
}

/** Spawns a worker of the project on the node and waits until it is ready; its id. */
export async function readyWorker(
  bed: NodeTestBed,
  projectId: string,
  nodeId: string,
): Promise<string> {
  const spawned = await bed.t.api.post(
    `/orgs/${bed.org.id}/projects/${projectId}/workers?wait=true`,
    { nodeId },
    { token: bed.owner.token },
  );
  expect(spawned.body.state).toBe('ready');
  return spawned.body.id;
}
