import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectTestEngine, describeEngine } from '../../../test/helpers/engine.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import {
  createSparrowClient,
  followWorkerLogs,
  openTerminal,
  outputText,
  SocketError,
  type SparrowClient,
  type TerminalFrame,
  unwrap,
} from './index.js';

/**
 * Reads one socket's output as text: `until(text)` waits for it to show
 * (false after `ms`); a read that timed out is kept for the next call, so
 * no frame is lost between calls.
 */
function outputReader(frames: AsyncIterator<TerminalFrame>) {
  let pending: Promise<IteratorResult<TerminalFrame>> | null = null;
  let seen = '';
  return {
    async until(text: string, ms = 15_000): Promise<boolean> {
      const deadline = Date.now() + ms;
      while (!seen.includes(text)) {
        pending ??= frames.next();
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), left));
        const result = await Promise.race([pending, timeout]);
        if (result === null) return false;
        pending = null;
        if (result.done) return false;
        if (result.value.type === 'output') seen += outputText(result.value);
      }
      return true;
    },
  };
}

describeEngine('the client library’s live sockets, against a worker on a real engine', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let sparrow: SparrowClient;
  let workerId: string;

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
    await onlineNode(bed, docker);
    // Node 20 has no global WebSocket: the `ws` package's class is given.
    sparrow = createSparrowClient({ baseUrl: bed.baseUrl, token: bed.owner.token, WebSocket });
    const orgId = bed.org.id;
    const project = await unwrap(
      sparrow.POST('/api/orgs/{orgId}/projects', {
        params: { path: { orgId } },
        body: { name: 'client-sockets' },
      }),
    );
    const worker = await unwrap(
      sparrow.POST('/api/orgs/{orgId}/projects/{projectId}/workers', {
        params: { path: { orgId, projectId: project.id }, query: { wait: true } },
        body: {},
      }),
    );
    expect(worker.state).toBe('ready');
    workerId = worker.id;
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  it('attaches a terminal: ready, input, resize, output; reattaching restores the screen', async () => {
    const terminal = openTerminal(sparrow, workerId, { session: 'client', cols: 100, rows: 30 });
    expect(await terminal.ready).toMatchObject({
      type: 'ready',
      mode: 'terminal',
      session: 'client',
      cols: 100,
      rows: 30,
    });
    const output = outputReader(terminal.frames());
    terminal.input('echo $((6 * 7))-answer\r');
    expect(await output.until('42-answer')).toBe(true);
    terminal.resize(91, 23);
    // The resize reaches the engine on its own request: ask until the new size shows.
    let resized = false;
    for (let attempt = 0; attempt < 20 && !resized; attempt++) {
      terminal.input('stty size\r');
      resized = await output.until('23 91', 500);
    }
    expect(resized).toBe(true);
    terminal.close();
    expect((await terminal.closed).code).toBe(1000);

    const again = openTerminal(sparrow, workerId, { session: 'client' });
    await again.ready;
    expect(await outputReader(again.frames()).until('42-answer')).toBe(true);
    again.close();
  });

  it('follows the worker’s logs', async () => {
    const logs = followWorkerLogs(sparrow, workerId, { tail: 10 });
    expect(await logs.ready).toMatchObject({ type: 'ready', mode: 'logs' });
    logs.close();
    await logs.closed;
  });

  it('rejects ready when the handshake is refused', async () => {
    const stranger = createSparrowClient({ baseUrl: bed.baseUrl, token: 'spk_unknown', WebSocket });
    const refused = openTerminal(stranger, workerId);
    await expect(refused.ready).rejects.toBeInstanceOf(SocketError);
  });
});
