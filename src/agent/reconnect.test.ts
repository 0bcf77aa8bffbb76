import { afterEach, describe, expect, it } from 'vitest';
import { startTestAgentServer, type TestAgentServer } from '../../test/helpers/agent-server.js';
import { eventually } from '../../test/helpers/engine.js';
import { freePort } from '../../test/helpers/ports.js';
import { AgentConnection } from './connection.js';
import { createEngine } from './engine.js';
import { Runtime } from './runtime.js';

describe('reconnecting', () => {
  let server: TestAgentServer | undefined;
  let agent: AgentConnection | undefined;

  afterEach(async () => {
    await agent?.stop();
    await server?.close();
  });

  it('keeps dialling until the server comes up, and reports an engine it cannot reach', async () => {
    const port = await freePort();
    // No engine behind this socket: the agent still connects and says so.
    const runtime = new Runtime(createEngine({ kind: 'socket', socketPath: '/nonexistent.sock' }));
    agent = new AgentConnection({
      server: `http://127.0.0.1:${port}`,
      token: 'tok',
      runtime,
      initialBackoffMs: 20,
      maxBackoffMs: 100,
    });
    let failures = 0;
    agent.on('disconnected', () => failures++);
    agent.start();
    // Refused at least twice: it retried.
    await eventually(() => (failures >= 2 ? true : undefined));

    server = await startTestAgentServer('tok', port);
    const peer = await server.nextPeer();
    const hello = await peer.hello;
    expect(hello.node.engine.reachable).toBe(false);
    expect(hello.node.engine.error).toMatch(/nonexistent\.sock|unreachable/);
    expect(hello.inventory).toEqual([]);
    await expect(peer.request('inventory.list', {})).rejects.toMatchObject({
      code: 'engine_unavailable',
    });

    const again = server.nextPeer();
    server.sockets[0]?.close(1011, 'server restarting');
    expect((await (await again).hello).node.hostname).toBe(hello.node.hostname);
  });
});
