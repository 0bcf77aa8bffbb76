import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import {
  type FakeAgent,
  type FakeRuntime,
  fakeContainers,
} from '../../../test/helpers/fake-agent.js';
import { createProject, onlineFakeNode, readyWorker } from '../../../test/helpers/nodes.js';
import { anotherProcess, listenOnLoopback } from '../../../test/helpers/processes.js';
import { openSocket } from '../../../test/helpers/ws-client.js';

/**
 * The race of a terminal-like socket: the agent sends a stream's first bytes
 * (a shell's prompt, a log's first lines) right after its attach reply, or,
 * here, deterministically before it. The client must still see `ready`
 * before any `output`, and lose none of it. Two apps on one database stand
 * for two server processes: the agent is held by one, so a socket opened on
 * the other goes through the relay.
 */
describe('terminal sockets send ready before any output', () => {
  const bed = useNodeBed({ JOB_POLL_MS: '100' });
  let holder: FastifyInstance;
  let holderUrl: string;
  let agent: FakeAgent;
  let workerId: string;
  const ROUNDS = 15;

  const base = fakeContainers();
  const info = (name: string) => ({
    name,
    containerId: 'c',
    command: ['sh'],
    cols: 80,
    rows: 24,
    createdAt: new Date().toISOString(),
    attachments: 0,
  });
  /** Sends a stream's data before answering the request that opened it. */
  const early = (id: string, text: string) =>
    agent.socket.send(
      JSON.stringify({ type: 'stream.data', id, data: Buffer.from(text).toString('base64') }),
    );
  const runtime: FakeRuntime = (method, params, id) => {
    switch (method) {
      case 'terminal.list':
        return { result: { terminals: [info('main')] } };
      case 'terminal.attach':
        early(id, '$ prompt');
        return { result: info('main') };
      case 'logs.follow':
        early(id, 'first line\n');
        return { result: { containerId: 'c' } };
      default:
        return base(method, params, id);
    }
  };

  beforeAll(async () => {
    holder = (await anotherProcess(bed.t, { notifications: false })).app;
    holderUrl = await listenOnLoopback(holder);
    const projectId = await createProject(bed, 'ready-first');
    const node = await onlineFakeNode(bed, 'eager', holderUrl, runtime);
    agent = node.agent;
    workerId = await readyWorker(bed, projectId, node.id);
  });
  afterAll(async () => {
    await agent.close();
    await holder.close();
  });

  const cases = [
    { name: 'a terminal', query: '', first: '$ prompt' },
    { name: 'a log', query: '?mode=logs', first: 'first line' },
  ];
  for (const { name, query, first } of cases) {
    for (const where of ['local', 'relayed'] as const) {
      it(`${name}, ${where}: ready first and the early output kept, every round`, async () => {
        const server = where === 'local' ? holderUrl : bed.baseUrl;
        const url = `${server.replace('http', 'ws')}/api/workers/${workerId}/terminal${query}`;
        for (let round = 0; round < ROUNDS; round++) {
          const client = await openSocket(url, bed.owner.token);
          await client.waitForOutput(first);
          const types = client.frames.map((frame) => frame.type);
          expect(types[0], `round ${round}: ${types.join(',')}`).toBe('ready');
          client.close();
          await client.closed;
        }
      });
    }
  }
});
