import { randomUUID } from 'node:crypto';
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
import { followLogs } from './logs.js';
import { Runtime } from './runtime.js';

describeEngine('runtime against a real engine', () => {
  let docker: Docker;
  let runtime: Runtime;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    runtime = new Runtime(docker, { statsIntervalMs: 200 });
  });

  afterAll(async () => {
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('reports the node and its engine', async () => {
    const info = await runtime.nodeInfo();
    expect(info.engine.reachable).toBe(true);
    expect(info.engine.name).toBe('podman');
    expect(info.cpus).toBeGreaterThan(0);
  });

  it('creates a labelled worker container, starts, stops, removes it, and lists it meanwhile', async () => {
    const workerId = randomUUID();
    const created = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      workerId,
      labels,
      env: { GREETING: 'hello there', EMPTY: '' },
      workdir: '/tmp',
      hostname: 'worker-1',
    });
    expect(created.name).toBe(`sparrow-worker-${workerId}`);
    expect(created.state).toBe('created');
    expect(created.workerId).toBe(workerId);
    expect(created.labels).toMatchObject({ ...labels, 'sparrow.managed': 'true' });

    const inventory = await runtime.inventory();
    expect(inventory.find((c) => c.id === created.id)).toMatchObject({
      workerId,
      state: 'created',
    });

    const started = await runtime.startContainer(created.id);
    expect(started.container.running).toBe(true);
    expect(started.checkouts).toEqual([]);
    const env = await runtime.exec(created.id, {
      command: ['sh', '-c', 'echo "$GREETING|$(env | grep -c ^EMPTY=)|$(pwd)|$(hostname)"'],
    });
    expect(env.stdout).toBe('hello there|1|/tmp|worker-1\n');

    const stopped = await runtime.stopContainer(created.id, 5);
    expect(stopped).toMatchObject({ running: false, state: 'exited' });
    expect(stopped.exitCode).toBe(0);
    const again = await runtime.startContainer(created.id);
    expect(again.container.running).toBe(true);

    await expect(runtime.removeContainer(created.id, false)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await runtime.removeContainer(created.id, true)).toBe(true);
    expect(await runtime.removeContainer(created.id, true)).toBe(false);
    await expect(runtime.inspect(created.id)).rejects.toMatchObject({ code: 'not_found' });
    const after = await runtime.inventory();
    expect(after.some((c) => c.id === created.id)).toBe(false);
  });

  it('refuses a second container with the same worker name', async () => {
    const workerId = randomUUID();
    await runtime.createContainer({ image: BUSYBOX_IMAGE, workerId, labels });
    await expect(
      runtime.createContainer({ image: BUSYBOX_IMAGE, workerId, labels }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('applies memory and CPU limits', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      memoryBytes: 64 * 1024 * 1024,
      cpus: 0.5,
    });
    await runtime.startContainer(container.id);
    const stats = await runtime.stats(container.id);
    expect(stats.memoryLimitBytes).toBe(64 * 1024 * 1024);
    expect(stats.memoryPercent).toBeGreaterThan(0);
    const inspected = await docker.getContainer(container.id).inspect();
    expect(inspected.HostConfig.NanoCpus).toBe(500_000_000);
  });

  it('runs without a network when asked, publishing nothing', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      network: 'none',
      ports: [{ containerPort: 8080 }],
    });
    const { container: running } = await runtime.startContainer(container.id);
    expect(running.ports.filter((p) => p.hostPort !== null)).toEqual([]);
    const links = await runtime.exec(container.id, { command: ['ls', '/sys/class/net'] });
    expect(links.stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
  });

  it('refuses an image that is not there with image_not_found', async () => {
    await expect(
      runtime.createContainer({ image: 'localhost/sparrow/no-such-image:v0', labels }),
    ).rejects.toMatchObject({ code: 'image_not_found' });
  });

  it('returns the last lines of the logs as text, stdout and stderr in order', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      command: [
        'sh',
        '-c',
        // stdout and stderr are two pipes: only a pause orders lines across them.
        'echo "oops" >&2; sleep 0.5; for i in 1 2 3 4 5; do echo "line $i"; done; echo "café ✓"; sleep 3600',
      ],
    });
    await runtime.startContainer(container.id);
    const text = await eventually(async () => {
      const logs = await runtime.logs(container.id);
      return logs.includes('café') ? logs : undefined;
    });
    expect(text).toBe('oops\nline 1\nline 2\nline 3\nline 4\nline 5\ncafé ✓\n');
    expect(await runtime.logs(container.id, 2)).toBe('line 5\ncafé ✓\n');
    expect(await runtime.logs(container.id, 0)).toBe('');
  });

  it('counts the last line without a newline as a line, and lines written in parts as one', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      command: [
        'sh',
        '-c',
        // The engine stores "a" + "b\n" and "d" + "e" as partial records (its tail mixes them up).
        'printf "x\\n"; printf "a"; sleep 0.3; printf "b\\nc\\n"; printf "d"; sleep 0.3; printf "e"; sleep 3600',
      ],
    });
    await runtime.startContainer(container.id);
    await eventually(async () =>
      (await runtime.logs(container.id)).endsWith('de') ? true : undefined,
    );
    expect(await runtime.logs(container.id)).toBe('x\nab\nc\nde');
    expect(await runtime.logs(container.id, 1)).toBe('de');
    expect(await runtime.logs(container.id, 2)).toBe('c\nde');
    expect(await runtime.logs(container.id, 3)).toBe('ab\nc\nde');
    expect(await runtime.logs(container.id, 4)).toBe('x\nab\nc\nde');
    expect(await runtime.logs(container.id, 100)).toBe('x\nab\nc\nde');
    expect(await runtime.logs(container.id, 0)).toBe('');

    // Followed from 2 lines back: the same lines, then what comes.
    let followed = '';
    const follower = await followLogs(
      docker,
      container.id,
      2,
      (frame) => {
        followed += frame.data.toString();
      },
      () => {},
    );
    await eventually(() => (followed === 'c\nde' ? true : undefined), 10_000, 'the last 2 lines');
    await runtime.exec(container.id, { command: ['sh', '-c', 'printf "f\\n" > /proc/1/fd/1'] });
    await eventually(() => (followed === 'c\ndef\n' ? true : undefined), 10_000, followed);
    follower.stop();
  });

  it('measures CPU and memory', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      command: ['sh', '-c', 'while :; do :; done'],
    });
    await runtime.startContainer(container.id);
    const stats = await eventually(async () => {
      const sample = await runtime.stats(container.id);
      return sample.cpuPercent > 0 ? sample : undefined;
    });
    expect(stats.cpuPercent).toBeGreaterThan(0);
    expect(stats.memoryBytes).toBeGreaterThan(0);
    expect(stats.onlineCpus).toBeGreaterThan(0);
    await expect(runtime.stats('sparrow-no-such-container')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('runs a command to its end with exit code, separate outputs, stdin, cap and time-out', async () => {
    const container = await runtime.createContainer({ image: BUSYBOX_IMAGE, labels });
    await runtime.startContainer(container.id);

    const result = await runtime.exec(container.id, {
      command: ['sh', '-c', 'echo out; echo err >&2; exit 3'],
    });
    expect(result).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(result).toMatchObject({ truncated: false, timedOut: false });

    const piped = await runtime.exec(container.id, {
      command: ['sh', '-c', 'wc -c; cat'],
      stdin: Buffer.from('abc'),
    });
    expect(piped.stdout.replace(/\s+/g, ' ').trim()).toBe('3');

    const capped = await runtime.exec(container.id, {
      command: ['sh', '-c', 'yes 0123456789 | head -c 100000'],
      maxOutputBytes: 1000,
    });
    expect(capped.stdout).toHaveLength(1000);
    expect(capped.truncated).toBe(true);
    expect(capped.exitCode).toBe(0);

    const slow = await runtime.exec(container.id, {
      command: ['sh', '-c', 'echo before; sleep 600; echo after'],
      timeoutMs: 500,
    });
    expect(slow.timedOut).toBe(true);
    expect(slow.stdout).toBe('before\n');
    expect(slow.exitCode).not.toBe(0);
    const leftover = await runtime.exec(container.id, { command: ['ps', '-o', 'args'] });
    expect(leftover.stdout).not.toContain('sleep 600');

    await expect(
      runtime.exec('sparrow-no-such-container', { command: ['true'] }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await runtime.stopContainer(container.id, 1);
    await expect(runtime.exec(container.id, { command: ['true'] })).rejects.toMatchObject({
      code: 'not_running',
    });
  });

  it('lists listening TCP ports from inside the container, and publishes a port on loopback', async () => {
    const container = await runtime.createContainer({
      image: BUSYBOX_IMAGE,
      labels,
      ports: [{ containerPort: 8080 }],
      command: [
        'sh',
        '-c',
        'mkdir -p /www && echo served > /www/index.html && httpd -p 8080 -h /www && httpd -p 127.0.0.1:9090 -h /www && sleep 3600',
      ],
    });
    const { container: running } = await runtime.startContainer(container.id);
    const ports = await eventually(async () => {
      const found = await runtime.ports(container.id);
      return found.length >= 2 ? found : undefined;
    });
    expect(ports.map((p) => p.port)).toEqual([8080, 9090]);
    expect(ports.find((p) => p.port === 9090)).toMatchObject({
      family: 'ipv4',
      address: '127.0.0.1',
    });

    const mapping = running.ports.find((p) => p.containerPort === 8080);
    expect(mapping).toMatchObject({ protocol: 'tcp', hostIp: '127.0.0.1' });
    const hostPort = mapping?.hostPort;
    expect(hostPort).toBeGreaterThan(0);
    const response = await eventually(async () => {
      const answer = await fetch(`http://127.0.0.1:${hostPort}/index.html`);
      return answer.ok ? answer.text() : undefined;
    });
    expect(response).toBe('served\n');
  });
});
