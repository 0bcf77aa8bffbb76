import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgentServer, type TestAgentServer } from '../../test/helpers/agent-server.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  removeLabelled,
  testEngineEndpoint,
  testRunLabel,
} from '../../test/helpers/engine.js';
import { sparrowArgs } from '../../test/helpers/sparrow-process.js';
import { AgentArgsError, parseAgentArgs } from './cli.js';
import { describeEndpoint } from './engine.js';

describe('agent arguments', () => {
  it('reads flags, with = or a separate value, over the environment', () => {
    const args = parseAgentArgs(
      [
        '--server',
        'http://s:8080',
        '--token=tok',
        '--docker-host',
        'unix:///x.sock',
        '--no-init',
        '--no-tmux',
      ],
      { AGENT_SERVER_URL: 'http://ignored', AGENT_TOKEN: 'ignored' },
    );
    expect(args).toMatchObject({
      server: 'http://s:8080',
      token: 'tok',
      engine: { kind: 'socket', socketPath: '/x.sock' },
      init: false,
      tmux: false,
      logLevel: 'info',
    });
  });

  it('falls back to AGENT_SERVER_URL, AGENT_TOKEN and DOCKER_HOST', () => {
    const args = parseAgentArgs([], {
      AGENT_SERVER_URL: 'https://sparrow.example',
      AGENT_TOKEN: 'secret',
      DOCKER_HOST: 'tcp://127.0.0.1:2375',
    });
    expect(args).toMatchObject({
      server: 'https://sparrow.example',
      token: 'secret',
      engine: { kind: 'tcp', port: 2375 },
      init: true,
      tmux: true,
    });
  });

  it('says what is wrong', () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [[], {}, /missing --server URL \(or AGENT_SERVER_URL\)/],
      [['--server', 'http://s'], {}, /missing --token TOKEN \(or AGENT_TOKEN\)/],
      [['--server'], {}, /--server needs a value/],
      [['--server', '--token', 't'], {}, /--server needs a value/],
      [['--server', 'nope', '--token', 't'], {}, /--server: expected an http/],
      [['--server', 'http://s', '--token', 't', '--docker-host', 'ssh://h'], {}, /--docker-host/],
      [['--server', 'http://s', '--token', 't', '--log-level', 'loud'], {}, /--log-level/],
      [['--frobnicate'], {}, /unknown argument "--frobnicate"/],
    ];
    for (const [argv, env, message] of cases) {
      expect(() => parseAgentArgs(argv, env)).toThrow(AgentArgsError);
      expect(() => parseAgentArgs(argv, env)).toThrow(message);
    }
  });
});

interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function startCli(args: string[], env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, sparrowArgs(args), {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<Exited>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, exited };
}

describe('sparrow agent on the command line', () => {
  it('prints its usage, and refuses bad arguments with status 2', async () => {
    const [help, bad, main] = await Promise.all([
      startCli(['agent', '--help']).exited,
      startCli(['agent', '--token', 't']).exited,
      startCli(['--help']).exited,
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--server URL');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^agent: missing --server URL/);
    expect(main.stdout).toContain('agent');
  });
});

describeEngine('sparrow agent as a process', () => {
  let server: TestAgentServer;
  const dockerHost = describeEndpoint(testEngineEndpoint());

  beforeAll(async () => {
    server = await startTestAgentServer('process-token');
  });

  const labels = testRunLabel();

  afterAll(async () => {
    await server?.close();
    await removeLabelled(await connectTestEngine(), labels);
  });

  it('connects with its token, answers requests, and stops cleanly on SIGTERM', async () => {
    const { child, exited } = startCli(['agent', '--server', server.url], {
      AGENT_TOKEN: 'process-token',
      DOCKER_HOST: dockerHost,
    });
    const peer = await server.nextPeer();
    const hello = await peer.hello;
    expect(hello.node.engine.reachable).toBe(true);
    const info = await peer.request('node.info', {});
    expect(info.hostname).toBe(hello.node.hostname);
    child.kill('SIGTERM');
    const result = await exited;
    expect(result.code).toBe(0);
  });

  it('exits on SIGTERM while a terminal session holds an engine stream open', async () => {
    const { child, exited } = startCli(['agent', '--server', server.url], {
      AGENT_TOKEN: 'process-token',
      DOCKER_HOST: dockerHost,
    });
    const peer = await server.nextPeer();
    await peer.hello;
    const container = await peer.request('container.create', { image: BUSYBOX_IMAGE, labels });
    await peer.request('container.start', { containerId: container.id });
    await peer.request('terminal.create', { containerId: container.id, name: 'main' });
    child.kill('SIGTERM');
    const result = await exited;
    expect(result).toMatchObject({ code: 0, signal: null });
  });

  it('exits with status 1 and one line when the server refuses the token', async () => {
    const result = await startCli(['agent', '--server', server.url, '--token', 'wrong'], {
      DOCKER_HOST: dockerHost,
    }).exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error: the server refused the node token (HTTP 401)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.rejected).toBeGreaterThan(0);
  });
});
