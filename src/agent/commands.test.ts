import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
} from '../../test/helpers/engine.js';
import { CommandTracker, type OutputChunk } from './commands.js';
import { createContainer, startContainer } from './containers.js';
import { execRun } from './exec.js';
import type { CommandInfo } from './protocol/schemas.js';

describeEngine('background commands', () => {
  let docker: Docker;
  let tracker: CommandTracker;
  let containerId: string;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    tracker = new CommandTracker(docker, { outputLimit: 64 * 1024 });
    const container = await createContainer(
      docker,
      { image: BUSYBOX_IMAGE, labels },
      { init: true },
    );
    containerId = container.id;
    await startContainer(docker, containerId);
  });

  afterAll(async () => {
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  const finished = (id: string) =>
    eventually(async () => {
      const output = await tracker.get(id);
      return output.state === 'running' ? undefined : output;
    });

  it('runs in the background and is read back with its exit code and both outputs', async () => {
    const started = await tracker.start({
      containerId,
      command: ['sh', '-c', 'echo one; echo two >&2; exit 4'],
    });
    expect(started).toMatchObject({ state: 'running', exitCode: null, containerId });
    const output = await finished(started.id);
    expect(output).toMatchObject({
      state: 'exited',
      exitCode: 4,
      stdout: 'one\n',
      stderr: 'two\n',
      outputBytes: 8,
      droppedBytes: 0,
      error: null,
    });
    expect(output.endedAt).not.toBeNull();
    expect(tracker.list(containerId).map((c) => c.id)).toContain(started.id);
    expect(tracker.list('another-container')).toEqual([]);
  });

  it('is cancelled with every process it started, and says so', async () => {
    const started = await tracker.start({
      containerId,
      command: ['sh', '-c', 'echo begun; sleep 601 & sleep 602; wait'],
      env: { PURPOSE: 'cancel-test' },
    });
    await eventually(async () =>
      (await tracker.get(started.id)).stdout === 'begun\n' ? true : undefined,
    );
    const cancelled = await tracker.cancel(started.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.endedAt).not.toBeNull();
    const ps = await execRun(docker, containerId, { command: ['ps', '-o', 'args'] });
    expect(ps.stdout).not.toMatch(/sleep 60[12]/);
    // Cancelling a finished command changes nothing.
    expect((await tracker.cancel(started.id)).state).toBe('cancelled');
  });

  it('is followed: output so far, then live output, then the end', async () => {
    const started = await tracker.start({
      containerId,
      command: [
        'sh',
        '-c',
        'echo first; until [ -s /tmp/go-signal ]; do sleep 0.1; done; read line < /tmp/go-signal; echo "second $line" >&2',
      ],
    });
    await eventually(async () =>
      (await tracker.get(started.id)).stdout === 'first\n' ? true : undefined,
    );
    const chunks: OutputChunk[] = [];
    let ended: CommandInfo | undefined;
    const following = tracker.follow(started.id, {
      onData: (chunk) => chunks.push(chunk),
      onEnd: (info) => {
        ended = info;
      },
    });
    expect(following.info.state).toBe('running');
    expect(chunks).toEqual([{ channel: 'stdout', data: Buffer.from('first\n') }]);
    await execRun(docker, containerId, { command: ['sh', '-c', 'echo go > /tmp/go-signal'] });
    const end = await eventually(() => ended);
    expect(end).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(chunks.slice(1)).toEqual([{ channel: 'stderr', data: Buffer.from('second go\n') }]);

    // Following a finished command replays its output and ends at once.
    const replay: OutputChunk[] = [];
    let replayEnded = false;
    tracker.follow(started.id, {
      onData: (chunk) => replay.push(chunk),
      onEnd: () => {
        replayEnded = true;
      },
    });
    expect(replay).toHaveLength(2);
    expect(replayEnded).toBe(true);
  });

  it('keeps only the last output past its limit and counts what it dropped', async () => {
    const started = await tracker.start({
      containerId,
      command: ['sh', '-c', 'yes 0123456789abcdef | head -c 200000; echo; echo tail-marker'],
    });
    const output = await finished(started.id);
    expect(output.outputBytes).toBe(200_000 + 1 + 'tail-marker\n'.length);
    expect(output.droppedBytes).toBeGreaterThan(0);
    expect(output.stdout.length).toBeLessThanOrEqual(64 * 1024);
    expect(output.stdout.endsWith('\ntail-marker\n')).toBe(true);
    expect(output.outputBytes - output.droppedBytes).toBe(Buffer.byteLength(output.stdout));
  });

  it('answers an unknown id with command_not_found', async () => {
    await expect(tracker.get('no-such-command')).rejects.toMatchObject({
      code: 'command_not_found',
    });
    await expect(tracker.cancel('no-such-command')).rejects.toMatchObject({
      code: 'command_not_found',
    });
  });

  it('ends as cancelled when its container is removed', async () => {
    const other = await createContainer(docker, { image: BUSYBOX_IMAGE, labels }, { init: true });
    await startContainer(docker, other.id);
    const started = await tracker.start({ containerId: other.id, command: ['sleep', '600'] });
    tracker.abandon(other.id);
    await docker.getContainer(other.id).remove({ force: true });
    const output = await finished(started.id);
    expect(output.state).toBe('cancelled');
  });

  it('is read once when a new tracker is asked for it twice at once after a restart', async () => {
    const started = await tracker.start({
      containerId,
      command: ['sh', '-c', 'echo first; echo second; exit 2'],
    });
    await finished(started.id);
    // A new agent's tracker finds the command in the container's files.
    const after = new CommandTracker(docker, { outputLimit: 64 * 1024 });
    await after.recover([containerId]);
    const [one, two] = await Promise.all([after.get(started.id), after.get(started.id)]);
    expect(one.stdout).toBe('first\nsecond\n');
    expect(two.stdout).toBe('first\nsecond\n');
    expect(one).toMatchObject({ state: 'exited', exitCode: 2 });
  });
});
