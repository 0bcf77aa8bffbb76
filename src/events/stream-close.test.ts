import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { createWorkspace } from '../../test/helpers/factories.js';
import { opened, openSse } from '../../test/helpers/sse.js';
import { until } from '../../test/helpers/wait.js';

const lines: string[] = [];
let t: TestApp;
let base = '';

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, [], {
    logStream: { write: (line: string) => lines.push(line) },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t?.close());

/** A stream the client closes ends quietly: no second answer is attempted on it. */
it('logs no error when the client closes an open stream', async () => {
  const workspace = await createWorkspace(t);
  const stream = opened(
    await openSse(`${base}/workspaces/${workspace.id}/events/stream`, {
      authorization: `Bearer ${workspace.owner.token}`,
    }),
  );
  await until(() => stream.messages.some((message) => message.event === 'ready'), 'ready');
  stream.close();
  await until(() => lines.some((line) => line.includes('stream closed prematurely')), 'the close');
  // One more exchange: what the close set off within the process has run by its answer.
  expect((await t.http.get('/health')).status).toBe(200);
  const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(logged.filter((line) => line.level >= 40)).toEqual([]);
});
