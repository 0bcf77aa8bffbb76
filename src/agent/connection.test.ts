import xtermHeadless from '@xterm/headless';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  rawRequest,
  startTestAgentServer,
  type TestAgentServer,
} from '../../test/helpers/agent-server.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
} from '../../test/helpers/engine.js';
import { AgentConnection } from './connection.js';
import type { AgentPeer, StreamEnd } from './peer.js';
import type { InventoryMessage } from './protocol/messages.js';
import { Runtime } from './runtime.js';

const TOKEN = 'node-token-for-tests';

/** Collects a stream's bytes and its end. */
function collector() {
  const chunks: Buffer[] = [];
  let end: StreamEnd | undefined;
  return {
    handlers: {
      onData: (bytes: Buffer) => chunks.push(bytes),
      onEnd: (ended: StreamEnd) => {
        end = ended;
      },
    },
    bytes: () => Buffer.concat(chunks),
    ended: () => end,
    waitFor: (needle: string) =>
      eventually(() => (Buffer.concat(chunks).includes(needle) ? true : undefined), 20_000, needle),
  };
}

describeEngine('the agent connection, against a test server speaking the protocol', () => {
  let docker: Docker;
  let server: TestAgentServer;
  let agent: AgentConnection;
  let peer: AgentPeer;
  let containerId: string;
  const labels = testRunLabel();
  const workerId = `w-${labels['sparrow.test']}`;

  beforeAll(async () => {
    docker = await connectTestEngine();
    server = await startTestAgentServer(TOKEN);
    const runtime = new Runtime(docker);
    const existing = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      workerId,
    });
    containerId = existing.id;
    agent = new AgentConnection({
      server: server.url,
      token: TOKEN,
      runtime,
      initialBackoffMs: 50,
      maxBackoffMs: 500,
    });
    agent.start();
    peer = await server.nextPeer();
  });

  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('says hello with the node, its engine and its inventory, and is welcomed', async () => {
    const welcomed = new Promise((resolve) => agent.once('welcome', resolve));
    const hello = await peer.hello;
    expect(hello.protocol).toBe(1);
    expect(hello.node.engine).toMatchObject({ reachable: true, name: 'podman' });
    expect(hello.inventory.find((c) => c.id === containerId)).toMatchObject({
      workerId,
      state: 'created',
    });
    expect(await welcomed).toBe(server.nodeId);
  });

  it('answers requests with results that match their schemas, and errors with codes', async () => {
    const started = await peer.request('container.start', { containerId });
    expect(started.container.running).toBe(true);
    const ran = await peer.request('exec.run', {
      containerId,
      command: ['sh', '-c', 'cat; echo done >&2'],
      stdin: Buffer.from('piped').toString('base64'),
    });
    expect(ran).toMatchObject({ exitCode: 0, stdout: 'piped', stderr: 'done\n' });
    const reconciled = await peer.request('inventory.reconcile', {
      workers: [
        { workerId, containerId: null },
        { workerId: 'w-gone', containerId: 'f'.repeat(64) },
      ],
    });
    expect(reconciled.present.map((p) => p.container.id)).toContain(containerId);
    expect(reconciled.missing).toEqual(['w-gone']);

    await expect(
      peer.request('container.inspect', { containerId: 'sparrow-nothing-here' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses invalid parameters, unknown methods and malformed requests, by id', async () => {
    const socket = server.sockets[0];
    if (socket === undefined) throw new Error('no socket');
    const badParams = await rawRequest(
      socket,
      JSON.stringify({ type: 'request', id: 'x1', method: 'exec.run', params: { containerId } }),
      'x1',
    );
    expect(badParams).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(JSON.stringify(badParams)).toContain('command');
    const unknown = await rawRequest(
      socket,
      JSON.stringify({ type: 'request', id: 'x2', method: 'container.explode', params: {} }),
      'x2',
    );
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    const malformed = await rawRequest(
      socket,
      JSON.stringify({ type: 'request', id: 'x3', method: 'node.info', extra: true }),
      'x3',
    );
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('streams a terminal: ready, screen, input and output, resize, two clients, detach', async () => {
    await peer.request('terminal.create', { containerId, name: 'dev', command: ['sh'] });
    const first = collector();
    const attached = await peer.openStream(
      'terminal.attach',
      { containerId, name: 'dev', cols: 90, rows: 20 },
      first.handlers,
    );
    expect(attached.result).toMatchObject({ name: 'dev', cols: 90, rows: 20, attachments: 1 });
    await first.waitFor('\x1bc');
    attached.stream.input(Buffer.from('echo sum-$((40+2))\r'));
    await first.waitFor('sum-42');

    const second = collector();
    const other = await peer.openStream(
      'terminal.attach',
      { containerId, name: 'dev' },
      second.handlers,
    );
    await second.waitFor('sum-42');
    other.stream.resize(70, 15);
    other.stream.input(Buffer.from('stty size\r'));
    await first.waitFor('15 70');
    await second.waitFor('15 70');

    // Paused by the server, the program's output waits; resumed, it arrives whole.
    attached.stream.pause();
    other.stream.pause();
    attached.stream.input(Buffer.from('echo after-$((50+5))\r'));
    attached.stream.resume();
    other.stream.resume();
    await first.waitFor('after-55');
    await second.waitFor('after-55');

    attached.stream.close();
    other.stream.close();
    const { terminals } = await eventually(async () => {
      const listed = await peer.request('terminal.list', { containerId });
      return listed.terminals[0]?.attachments === 0 ? listed : undefined;
    });
    expect(terminals.map((t) => t.name)).toEqual(['dev']);
  });

  it('follows a background command and the container logs as streams', async () => {
    const command = await peer.request('command.start', {
      containerId,
      command: ['sh', '-c', 'echo out-1; echo err-1 >&2; sleep 0.2; echo out-2; exit 7'],
    });
    const output = collector();
    const followed = await peer.openStream(
      'command.follow',
      { commandId: command.id },
      output.handlers,
    );
    expect(followed.result.id).toBe(command.id);
    const end = await eventually(() => output.ended());
    expect(end.exitCode).toBe(7);
    expect(output.bytes().toString()).toContain('out-2');
    const listed = await peer.request('command.list', { containerId });
    expect(listed.commands.find((c) => c.id === command.id)).toMatchObject({ state: 'exited' });

    const logged = await peer.request('container.create', {
      image: BUSYBOX_IMAGE,
      labels,
      command: ['sh', '-c', 'echo first-line; exec sleep 3600'],
    });
    await peer.request('container.start', { containerId: logged.id });
    const logs = collector();
    await peer.openStream('logs.follow', { containerId: logged.id, tail: 10 }, logs.handlers);
    await logs.waitFor('first-line');
    await peer.request('container.stop', { containerId: logged.id, timeoutSeconds: 1 });
    expect(await eventually(() => logs.ended())).toEqual({});
  });

  it('reports inventory changes the engine makes on its own', async () => {
    // Created and run behind the agent's back; it exits by itself.
    const brief = await docker.createContainer({
      Image: BUSYBOX_IMAGE,
      Cmd: ['true'],
      Labels: { ...labels, 'sparrow.managed': 'true' },
    });
    const exited = new Promise<void>((resolve) => {
      const listener = (message: InventoryMessage) => {
        const entry = message.containers.find((c) => c.id === brief.id);
        if (entry?.state !== 'exited') return;
        peer.off('inventory', listener);
        resolve();
      };
      peer.on('inventory', listener);
    });
    await brief.start();
    await exited;
  });

  it('reconnects after the server drops it; terminal sessions live on and come back', async () => {
    const reconnected = server.nextPeer();
    server.sockets[0]?.terminate();
    const next = await reconnected;
    const hello = await next.hello;
    expect(hello.terminals.map((t) => t.name)).toContain('dev');
    expect(hello.commands.length).toBeGreaterThan(0);

    const client = collector();
    const { stream } = await next.openStream(
      'terminal.attach',
      { containerId, name: 'dev' },
      client.handlers,
    );
    await client.waitFor('sum-42');
    const terminal = new xtermHeadless.Terminal({ cols: 70, rows: 15, allowProposedApi: true });
    await new Promise<void>((resolve) => terminal.write(client.bytes(), resolve));
    const lines: string[] = [];
    for (let y = 0; y < terminal.buffer.active.length; y++) {
      lines.push(terminal.buffer.active.getLine(y)?.translateToString(true) ?? '');
    }
    expect(lines).toContain('sum-42');
    expect(lines).toContain('15 70');
    stream.input(Buffer.from('exit\r'));
    expect(await eventually(() => client.ended())).toEqual({ exitCode: 0 });
  });
});
