import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RunOutput } from '../../../src/platform/job-runs/output.js';
import { useNodeBed } from '../../../test/fixtures/app.js';
import * as jobRuns from '../../../test/fixtures/job-runs.js';
import {
  createSparrowClient,
  followJobRun,
  type JobRunFrame,
  outputText,
  SocketError,
  type SparrowClient,
} from './index.js';

/** The platform app listening on a port, with an organization; runs are written to its tables. */
const bed = useNodeBed();
let service: jobRuns.RunService;
let sparrow: SparrowClient;

beforeAll(async () => {
  service = await jobRuns.runService(bed);
  // Node 20 has no global WebSocket: the `ws` package's class is given.
  sparrow = createSparrowClient({ baseUrl: bed.baseUrl, token: bed.owner.token, WebSocket });
});

describe('a job run followed with the client library', () => {
  it('resolves ready, then gives the output live and the end, typed', async () => {
    const runId = await jobRuns.insertRun(bed, service, 'running');
    const output = new RunOutput(bed.t.db, runId);
    output.write('before\n');
    await output.flush();

    const run = followJobRun(sparrow, runId);
    expect(await run.ready).toEqual({ type: 'ready', mode: 'logs', runId, status: 'running' });
    const frames: JobRunFrame[] = [];
    let text = '';
    const reading = (async () => {
      for await (const frame of run) {
        frames.push(frame);
        if (frame.type === 'output') text += outputText(frame);
      }
    })();
    await expect.poll(() => text).toBe('before\n');
    output.write('live\n');
    await output.flush();
    await expect.poll(() => text).toBe('before\nlive\n');
    await jobRuns.endRun(bed, runId, 'failed', 3, 'exited with 3');
    await reading; // the iteration ends when the socket closes
    expect(await run.closed).toEqual({ code: 1000, reason: 'run failed' });
    expect(frames.at(-1)).toEqual({
      type: 'end',
      status: 'failed',
      exitCode: 3,
      reason: 'exited with 3',
      outputBytes: 12,
      outputTruncated: false,
    });
  });

  it('rejects ready when the handshake is refused (an unknown run)', async () => {
    const unknown = followJobRun(sparrow, '0190f0f0-0000-7000-8000-000000000000');
    const error = await unknown.ready.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SocketError);
    expect(error).toMatchObject({ code: 'closed' });
  });

  it('says what to do when no WebSocket class is there (Node 20)', () => {
    const bare = createSparrowClient({ baseUrl: bed.baseUrl, token: bed.owner.token });
    if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'function') return;
    expect(() => followJobRun(bare, '0190f0f0-0000-7000-8000-000000000000')).toThrow(/`ws`/);
  });
});
