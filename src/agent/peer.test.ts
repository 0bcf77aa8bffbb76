import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestAgentServer, type TestAgentServer } from '../../test/helpers/agent-server.js';
import { eventually } from '../../test/helpers/engine.js';
import { agentConnectUrl } from './connection.js';
import type { HelloMessage } from './protocol/messages.js';

/** A hand-written agent: says what the test tells it to, nothing more. */
async function fakeAgent(server: TestAgentServer, token: string) {
  const socket = new WebSocket(agentConnectUrl(server.url, token));
  const received: { type: string; id?: string; method?: string }[] = [];
  socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, received, send: (message: unknown) => socket.send(JSON.stringify(message)) };
}

const hello: HelloMessage = {
  type: 'hello',
  protocol: 1,
  node: {
    hostname: 'fake',
    platform: 'linux',
    arch: 'x64',
    cpus: 1,
    memoryBytes: 1024,
    agentVersion: 'test',
    engine: { reachable: false, name: null, version: null, apiVersion: null, error: 'none here' },
  },
  inventory: [],
  terminals: [],
  commands: [],
};

describe('the server-side peer', () => {
  let server: TestAgentServer | undefined;

  afterEach(async () => {
    await server?.close();
  });

  it('welcomes a valid hello, and refuses an answer that breaks the result schema', async () => {
    server = await startTestAgentServer('t');
    const agent = await fakeAgent(server, 't');
    const peer = await server.nextPeer();
    agent.send({ type: 'inventory', containers: 'not a list', at: 'x' });
    agent.send(hello);
    expect((await peer.hello).node.hostname).toBe('fake');
    await eventually(() => agent.received.find((m) => m.type === 'welcome'));

    const answer = peer.request('container.logs', { containerId: 'abc', tail: 5 });
    const request = await eventually(() => agent.received.find((m) => m.type === 'request'));
    expect(request).toMatchObject({
      method: 'container.logs',
      params: { containerId: 'abc', tail: 5 },
    });
    agent.send({ type: 'response', id: request.id, ok: true, result: { text: 1 } });
    await expect(answer).rejects.toMatchObject({ code: 'invalid_result' });

    const failing = peer.request('container.inspect', { containerId: 'abc' });
    const second = await eventually(() =>
      agent.received.find((m) => m.type === 'request' && m.id !== request.id),
    );
    agent.send({
      type: 'response',
      id: second.id,
      ok: false,
      error: { code: 'not_found', message: 'no such container' },
    });
    await expect(failing).rejects.toMatchObject({ code: 'not_found' });
    agent.socket.close();
  });

  it('fails pending requests and open streams when the agent goes away', async () => {
    server = await startTestAgentServer('t');
    const agent = await fakeAgent(server, 't');
    const peer = await server.nextPeer();
    agent.send(hello);
    await peer.hello;
    const pending = peer.request('node.info', {});
    await eventually(() => agent.received.find((m) => m.type === 'request'));
    agent.socket.terminate();
    await expect(pending).rejects.toMatchObject({ code: 'agent_disconnected' });
    expect(peer.connected).toBe(false);
  });

  it('closes a connection that speaks another protocol version', async () => {
    server = await startTestAgentServer('t');
    const agent = await fakeAgent(server, 't');
    const peer = await server.nextPeer();
    const closed = new Promise<number>((resolve) => agent.socket.once('close', resolve));
    agent.send({ ...hello, protocol: 99 });
    await expect(peer.hello).rejects.toMatchObject({ code: 'protocol_mismatch' });
    expect(await closed).toBe(4400);
  });
});
