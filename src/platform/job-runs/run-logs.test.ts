import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useNodeBed } from '../../../test/fixtures/app.js';
import * as jobRuns from '../../../test/fixtures/job-runs.js';
import { createUser } from '../../../test/helpers/factories.js';
import { createKey } from '../../../test/helpers/platform.js';
import { anotherProcess, listenOnLoopback } from '../../../test/helpers/processes.js';
import { openSocket, refusedUpgrade } from '../../../test/helpers/ws-client.js';
import { newId } from '../../lib/ids.js';
import { JOB_RUN_OUTPUT_CAP, RunOutput } from './output.js';
import type { JobRunStatus } from './tables.js';

const PUBLIC_URL = 'https://sparrow.example:8443';

const bed = useNodeBed({ PUBLIC_URL });
let service: jobRuns.RunService;
/** A second application on the same database, standing for another server process. */
let other: FastifyInstance;
let otherWs: string;

const insertRun = (status: JobRunStatus) => jobRuns.insertRun(bed, service, status);
const endRun = (id: string, status: JobRunStatus, exitCode: number, reason: string | null) =>
  jobRuns.endRun(bed, id, status, exitCode, reason);
const logsUrl = (runId: string) => jobRuns.runLogsUrl(bed, runId);

beforeAll(async () => {
  service = await jobRuns.runService(bed);
  other = (await anotherProcess(bed.t)).app;
  otherWs = (await listenOnLoopback(other)).replace(/^http/, 'ws');
});
afterAll(async () => {
  await other.close();
});

describe('GET /api/job-runs/{runId}/logs', () => {
  it('replays a finished run from its start, ends with its status and closes', async () => {
    const runId = await insertRun('running');
    const output = new RunOutput(bed.t.db, runId);
    output.write('step 1\n');
    output.write('step 2\n');
    await output.flush();
    await endRun(runId, 'failed', 2, 'the pre-deploy hook exited with 2');
    const client = await openSocket(logsUrl(runId), bed.owner.token);
    const closed = await client.closed;
    expect(closed).toEqual({ code: 1000, reason: 'run failed' });
    expect(client.frames[0]).toMatchObject({
      type: 'ready',
      mode: 'logs',
      runId,
      status: 'failed',
    });
    expect(client.output()).toBe('step 1\nstep 2\n');
    expect(client.frames.at(-1)).toEqual({
      type: 'end',
      status: 'failed',
      exitCode: 2,
      reason: 'the pre-deploy hook exited with 2',
      outputBytes: 14,
      outputTruncated: false,
    });
  });

  it('follows a running run live, then ends when it finishes', async () => {
    const runId = await insertRun('running');
    const output = new RunOutput(bed.t.db, runId);
    output.write('before connecting\n');
    await output.flush();
    const client = await openSocket(logsUrl(runId), bed.owner.token);
    await client.waitForOutput('before connecting\n');
    expect(client.frames[0]).toMatchObject({ type: 'ready', status: 'running' });
    for (let i = 1; i <= 3; i++) {
      output.write(`live ${i}\n`);
      await output.flush();
      await client.waitForOutput(`live ${i}\n`);
    }
    await endRun(runId, 'succeeded', 0, null);
    expect(await client.closed).toEqual({ code: 1000, reason: 'run succeeded' });
    expect(client.output()).toBe('before connecting\nlive 1\nlive 2\nlive 3\n');
    expect(client.frames.at(-1)).toMatchObject({ type: 'end', status: 'succeeded', exitCode: 0 });
    expect(client.frames.filter((frame) => frame.type === 'end')).toHaveLength(1);
  });

  it('is served by any server process: output written by one is followed on another', async () => {
    const runId = await insertRun('running');
    const client = await openSocket(`${otherWs}/api/job-runs/${runId}/logs`, bed.owner.token);
    await client.frame((frame) => frame.type === 'ready');
    const output = new RunOutput(bed.t.db, runId);
    output.write('written elsewhere\n');
    await output.flush();
    await client.waitForOutput('written elsewhere\n');
    await endRun(runId, 'cancelled', 143, 'Cancelled by a newer deploy');
    expect(await client.closed).toEqual({ code: 1000, reason: 'run cancelled' });
    expect(client.frames.at(-1)).toMatchObject({ type: 'end', status: 'cancelled', exitCode: 143 });
  });

  it('replays the 1 MiB kept of a run that wrote more, and says it was truncated', async () => {
    const runId = await insertRun('running');
    const output = new RunOutput(bed.t.db, runId);
    const chunk = Buffer.alloc(256 * 1024, 'y');
    for (let i = 0; i < 5; i++) output.write(chunk);
    await output.flush();
    await endRun(runId, 'succeeded', 0, null);
    const client = await openSocket(logsUrl(runId), bed.owner.token);
    await client.closed;
    expect(Buffer.byteLength(client.output())).toBe(JOB_RUN_OUTPUT_CAP);
    expect(client.frames.at(-1)).toMatchObject({
      type: 'end',
      outputBytes: JOB_RUN_OUTPUT_CAP,
      outputTruncated: true,
    });
  });

  it('opens for a key with deployments:read and refuses the others before the upgrade', async () => {
    const runId = await insertRun('succeeded');
    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const client = await openSocket(logsUrl(runId), reader.token);
    expect(await client.closed).toMatchObject({ code: 1000 });

    const none = await refusedUpgrade(logsUrl(runId));
    expect(none.status).toBe(401);
    const other = await createKey(bed.t, bed.org, bed.owner, ['workers:exec']);
    const scope = await refusedUpgrade(logsUrl(runId), { authorization: `Bearer ${other.token}` });
    expect(scope.status).toBe(403);
    expect(scope.body.error.code).toBe('missing_scope');
    const outsider = await createUser(bed.t);
    const foreign = await refusedUpgrade(logsUrl(runId), {
      authorization: `Bearer ${outsider.token}`,
    });
    expect(foreign.status).toBe(404);
    const unknown = await refusedUpgrade(logsUrl(newId()), {
      authorization: `Bearer ${bed.owner.token}`,
    });
    expect(unknown.status).toBe(404);
    const cookie = await refusedUpgrade(logsUrl(runId), {
      cookie: `session=${bed.owner.token}`,
      origin: 'https://evil.example',
    });
    expect(cookie.status).toBe(403);
    expect(cookie.body.error.code).toBe('origin_not_allowed');
    const own = new WebSocket(logsUrl(runId), {
      headers: { cookie: `session=${bed.owner.token}`, origin: PUBLIC_URL },
    });
    const first = await new Promise<string>((resolve, reject) => {
      own.once('message', (data) => resolve(data.toString()));
      own.once('error', reject);
    });
    expect(JSON.parse(first)).toMatchObject({ type: 'ready' });
    own.close();
  });
});
