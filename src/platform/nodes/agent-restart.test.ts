import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testEngineEndpoint,
  testRunLabel,
} from '../../../test/helpers/engine.js';
import { freePort } from '../../../test/helpers/ports.js';
import { type FreshDatabase, freshDatabase, serve } from '../../../test/helpers/sparrow-process.js';
import { describeEndpoint } from '../../agent/engine.js';
import { execRun } from '../../agent/exec.js';

/**
 * A server killed with SIGKILL and started again: its built-in agent's hello
 * is accepted on the first try, however slow the recovery of other nodes'
 * containers on the engine would be (here: a `tmux` in them that never
 * answers, which a recovery waits on until its time-out).
 */
describeEngine('the built-in agent after a server is killed and restarted', () => {
  let docker: Docker;
  let database: FreshDatabase;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    database = await freshDatabase();
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        const container = await docker.createContainer({
          Image: BUSYBOX_IMAGE,
          Cmd: [
            'sh',
            '-c',
            'printf "#!/bin/sh\\nexec sleep 3600\\n" > /bin/tmux && chmod +x /bin/tmux && exec sleep 3600',
          ],
          Labels: { ...labels, 'sparrow.managed': 'true', 'sparrow.node': 'another-node' },
        });
        await container.start();
        await eventually(async () => {
          const found = await execRun(docker, container.id, {
            command: ['test', '-x', '/bin/tmux'],
          });
          return found.exitCode === 0 ? true : undefined;
        });
      }),
    );
  });
  afterAll(async () => {
    await database?.close();
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('accepts the hello at once (no 4400) and the node is online again', async () => {
    const port = String(await freePort());
    const env = {
      ...database.env,
      PORT: port,
      LOCAL_AGENT: 'true',
      LOCAL_AGENT_DOCKER_HOST: describeEndpoint(testEngineEndpoint()),
    };
    const connected = (output: () => string) =>
      eventually(() => (output().includes('agent connected') ? true : undefined), 60_000);

    const first = await serve(env);
    await connected(first.output);
    expect(first.output()).not.toMatch(/disconnected \(4400\)|"code":4400/);
    const killed = new Promise((resolve) => first.child.once('close', resolve));
    first.child.kill('SIGKILL');
    await killed;

    const second = await serve(env);
    try {
      await connected(second.output);
      expect(second.output()).not.toMatch(/disconnected \(4400\)|"code":4400/);
    } finally {
      await second.stop();
    }
  });
});
