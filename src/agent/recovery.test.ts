import type Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestAgentServer, type TestAgentServer } from '../../test/helpers/agent-server.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../test/helpers/engine.js';
import { AgentConnection } from './connection.js';
import type { AgentPeer } from './peer.js';
import { Runtime } from './runtime.js';

const TOKEN = 'recovery-token';

/** Counts the engine calls the agent makes about each of `watched` (exec, inspect, ...). */
function countTouches(docker: Docker, watched: Set<string>): Map<string, number> {
  const touches = new Map<string, number>();
  const getContainer = docker.getContainer.bind(docker);
  docker.getContainer = (id: string) => {
    if (watched.has(id)) touches.set(id, (touches.get(id) ?? 0) + 1);
    return getContainer(id);
  };
  return touches;
}

/**
 * An agent recovers (finds again the terminal sessions and background
 * commands of) only its own node's containers, after its hello: other
 * nodes' containers on the same engine neither delay it nor lose their
 * terminal clients to it.
 */
describeEngine("an agent's recovery after it starts", () => {
  let docker: Docker;
  const labels = testRunLabel();
  const agents: AgentConnection[] = [];
  const servers: TestAgentServer[] = [];

  async function startAgent(server: TestAgentServer, engine: Docker): Promise<AgentPeer> {
    const agent = new AgentConnection({
      server: server.url,
      token: TOKEN,
      runtime: new Runtime(engine),
      initialBackoffMs: 50,
      maxBackoffMs: 500,
    });
    agents.push(agent);
    const next = server.nextPeer();
    agent.start();
    return next;
  }

  async function stopAgents(): Promise<void> {
    await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  }

  beforeAll(async () => {
    docker = await connectTestEngine();
  });
  afterEach(stopAgents);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  async function server(): Promise<TestAgentServer> {
    const started = await startTestAgentServer(TOKEN);
    servers.push(started);
    return started;
  }

  it("says hello before recovering, and never touches another node's containers", async () => {
    const others = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const container = await docker.createContainer({
          Image: BUSYBOX_IMAGE,
          Cmd: ['sleep', '3600'],
          Labels: { ...labels, 'sparrow.managed': 'true', 'sparrow.node': 'some-other-node' },
        });
        await container.start();
        return container.id;
      }),
    );
    const engine = await connectTestEngine();
    const touches = countTouches(engine, new Set(others));
    const peer = await startAgent(await server(), engine);
    const hello = await peer.hello;
    expect(hello.inventory.map((c) => c.id)).toEqual(expect.arrayContaining(others));
    expect([...touches.values()]).toEqual([]);
    // Waits for the recovery to end (command requests do): still untouched.
    await peer.request('command.list', {});
    expect([...touches.values()]).toEqual([]);
  });

  it("recovers its own node's commands after the hello; requests wait for that", async () => {
    const node = await server();
    let peer = await startAgent(node, docker);
    await peer.hello;
    const container = await peer.request('container.create', {
      image: BUSYBOX_IMAGE,
      labels,
    });
    expect(container.labels['sparrow.node']).toBe(node.nodeId);
    await peer.request('container.start', { containerId: container.id });
    const command = await peer.request('command.start', {
      containerId: container.id,
      command: ['sh', '-c', 'echo kept; exit 5'],
    });
    await eventually(async () => {
      const got = await peer.request('command.get', { commandId: command.id });
      return got.state === 'exited' ? true : undefined;
    });
    await stopAgents();

    // A new agent (a restart): it knows the command only from the files in the container.
    peer = await startAgent(node, await connectTestEngine());
    await peer.hello;
    expect(await peer.request('command.get', { commandId: command.id })).toMatchObject({
      state: 'exited',
      exitCode: 5,
      stdout: 'kept\n',
    });
  });

  it("does not detach the terminal clients of another node's worker", async () => {
    const peer = await startAgent(await server(), docker);
    await peer.hello;
    const container = await peer.request('container.create', { image: WORKSPACE_IMAGE, labels });
    await peer.request('container.start', { containerId: container.id });
    await peer.request('terminal.create', { containerId: container.id, name: 'live' });
    let output = '';
    let ended = false;
    const { stream } = await peer.openStream(
      'terminal.attach',
      { containerId: container.id, name: 'live', cols: 80, rows: 20 },
      {
        onData: (bytes) => {
          output += bytes.toString('utf8');
        },
        onEnd: () => {
          ended = true;
        },
      },
    );
    const typed = (text: string) =>
      eventually(() => (output.includes(text) ? true : undefined), 20_000, text);
    stream.input(Buffer.from('echo before-$((40 + 2))\r'));
    await typed('before-42');

    // A second node's agent starts on the same engine and finishes its recovery.
    const second = await startAgent(await server(), await connectTestEngine());
    await second.hello;
    await second.request('command.list', {});

    stream.input(Buffer.from('echo after-$((50 + 2))\r'));
    await typed('after-52');
    expect(ended).toBe(false);
  });
  it('recovers a container without a node label only when the server names it as its worker', async () => {
    // Created before containers were labelled with their node (no welcome yet, no label).
    const before = new Runtime(docker);
    const container = await before.createContainer({ image: BUSYBOX_IMAGE, labels });
    expect(container.labels['sparrow.node']).toBeUndefined();
    await before.startContainer(container.id);
    const command = await before.commands.start({
      containerId: container.id,
      command: ['sh', '-c', 'echo legacy'],
    });
    await eventually(async () => {
      const got = await before.commands.get(command.id);
      return got.state === 'exited' ? true : undefined;
    });

    const peer = await startAgent(await server(), await connectTestEngine());
    await peer.hello;
    await expect(peer.request('command.get', { commandId: command.id })).rejects.toMatchObject({
      code: 'command_not_found',
    });
    const reconciled = await peer.request('inventory.reconcile', {
      workers: [{ workerId: 'w-legacy', containerId: container.id }],
    });
    expect(reconciled.present.map((p) => p.container.id)).toEqual([container.id]);
    expect(await peer.request('command.get', { commandId: command.id })).toMatchObject({
      state: 'exited',
      stdout: 'legacy\n',
    });
  });
});
