import type { ChildProcess } from 'node:child_process';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnAgent } from '../../test/helpers/agent-process.js';
import { startTestAgentServer, type TestAgentServer } from '../../test/helpers/agent-server.js';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../test/helpers/engine.js';
import type { AgentPeer } from './peer.js';

/**
 * The agent as a process, killed (SIGKILL) and started again: what tmux and
 * the command files hold in the container is found again by the new agent.
 */
describeEngine('an agent restart keeps terminal sessions and background commands', () => {
  let server: TestAgentServer;
  let docker: Docker;
  let containerId: string;
  let agent: ChildProcess | null = null;
  const labels = testRunLabel();

  /** Starts the agent process and waits for its hello. */
  async function startAgent(): Promise<AgentPeer> {
    agent = spawnAgent(server.url, 'durable-token');
    const peer = await server.nextPeer();
    await peer.hello;
    return peer;
  }

  async function killAgent(): Promise<void> {
    const child = agent;
    if (child === null) return;
    agent = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Attaches to a terminal; collects its output. */
  async function attach(peer: AgentPeer, name: string) {
    let output = Buffer.alloc(0);
    let exitCode: number | null | undefined;
    const { stream } = await peer.openStream(
      'terminal.attach',
      { containerId, name, cols: 80, rows: 20 },
      {
        onData: (bytes) => {
          output = Buffer.concat([output, bytes]);
        },
        onEnd: (end) => {
          exitCode = end.exitCode ?? null;
        },
      },
    );
    return {
      stream,
      text: () => output.toString('utf8'),
      ended: () => exitCode,
      waitFor: (needle: string) =>
        eventually(() => (output.includes(needle) ? true : undefined), 20_000, needle),
    };
  }

  beforeAll(async () => {
    docker = await connectTestEngine();
    server = await startTestAgentServer('durable-token');
    const peer = await startAgent();
    const container = await peer.request('container.create', { image: WORKSPACE_IMAGE, labels });
    await peer.request('container.start', { containerId: container.id });
    containerId = container.id;
  });
  afterAll(async () => {
    await killAgent();
    await server?.close();
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('lists a terminal session again after the restart; reattaching shows the earlier output', async () => {
    let peer = server.peers.at(-1) as AgentPeer;
    await peer.request('terminal.create', { containerId, name: 'work', cols: 80, rows: 20 });
    const first = await attach(peer, 'work');
    first.stream.input(Buffer.from('for i in $(seq 1 60); do echo "before-restart $i"; done\r'));
    await first.waitFor('before-restart 60');

    await killAgent();
    peer = await startAgent();
    // Recovered after the hello: the request waits for the container's recovery.
    const { terminals } = await peer.request('terminal.list', { containerId });
    expect(terminals).toMatchObject([{ name: 'work', attachments: 0 }]);

    const again = await attach(peer, 'work');
    // Line 1 left the 20-row screen long before: it is in the scrollback sent on attach.
    await again.waitFor('before-restart 1\r\n');
    await again.waitFor('before-restart 60');
    again.stream.input(Buffer.from('echo after-$((20 + 22))\r'));
    await again.waitFor('after-42');
    again.stream.input(Buffer.from('exit 4\r'));
    expect(await eventually(() => again.ended())).toBe(4);
    expect((await peer.request('terminal.list', { containerId })).terminals).toEqual([]);
  });

  it('keeps background commands: running ones end with their status and output, ended ones stay', async () => {
    let peer = server.peers.at(-1) as AgentPeer;
    const across = await peer.request('command.start', {
      containerId,
      command: ['sh', '-c', 'echo out-a; echo err-a >&2; sleep 4; echo late-a; exit 7'],
    });
    const ended = await peer.request('command.start', {
      containerId,
      command: ['sh', '-c', 'echo done-b; exit 3'],
    });
    const cancelled = await peer.request('command.start', {
      containerId,
      command: ['sleep', '779'],
    });
    await eventually(async () => {
      const output = await peer.request('command.get', { commandId: ended.id });
      return output.state === 'exited' ? true : undefined;
    });

    await killAgent();
    peer = await startAgent();
    const { commands } = await peer.request('command.list', { containerId });
    expect(commands.map((c) => c.id).sort()).toEqual([across.id, ended.id, cancelled.id].sort());
    expect(await peer.request('command.get', { commandId: ended.id })).toMatchObject({
      state: 'exited',
      exitCode: 3,
      stdout: 'done-b\n',
      stderr: '',
      command: ['sh', '-c', 'echo done-b; exit 3'],
    });

    // Followed after the restart: what it wrote before, then the rest, then its status.
    let followed = '';
    let exitCode: number | null | undefined;
    await peer.request('command.get', { commandId: across.id });
    await peer.openStream(
      'command.follow',
      { commandId: across.id },
      {
        onData: (bytes, channel) => {
          if (channel !== 'stderr') followed += bytes.toString();
        },
        onEnd: (end) => {
          exitCode = end.exitCode ?? null;
        },
      },
    );
    expect(await eventually(() => exitCode, 30_000)).toBe(7);
    expect(followed).toBe('out-a\nlate-a\n');
    expect(await peer.request('command.get', { commandId: across.id })).toMatchObject({
      state: 'exited',
      exitCode: 7,
      stdout: 'out-a\nlate-a\n',
      stderr: 'err-a\n',
      outputBytes: 19,
    });

    // Cancelled by the new agent: its process goes, and it says so after yet another restart.
    expect((await peer.request('command.cancel', { commandId: cancelled.id })).state).toBe(
      'cancelled',
    );
    const ps = await peer.request('exec.run', { containerId, command: ['ps', '-eo', 'args'] });
    expect(ps.stdout).not.toContain('sleep 779');
    await killAgent();
    peer = await startAgent();
    expect(await peer.request('command.get', { commandId: cancelled.id })).toMatchObject({
      state: 'cancelled',
    });
  });
});
