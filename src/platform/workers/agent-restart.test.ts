import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTestEngine, describeEngine, eventually } from '../../../test/helpers/engine.js';
import { withStatus } from '../../../test/helpers/http.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
  startAgent,
  waitForNodeStatus,
} from '../../../test/helpers/nodes.js';
import { openSocket } from '../../../test/helpers/ws-client.js';

/**
 * Through the API: the node's agent is replaced by a new one (nothing of the
 * old one's memory left); terminal sessions and background commands of the
 * worker are listed and served again.
 */
describeEngine('a worker across an agent restart', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let node: Awaited<ReturnType<typeof onlineNode>>;
  let workerId: string;
  let workerPath: `/orgs/${string}/projects/${string}/workers/${string}`;
  const as = () => ({ token: bed.owner.token });
  const socketUrl = (query: string) =>
    `${bed.baseUrl.replace('http', 'ws')}/api/workers/${workerId}/terminal?${query}`;

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
    node = await onlineNode(bed, docker);
    const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'kept' }, as());
    const spawned = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${project.body.id}/workers`,
      {},
      { ...as(), query: { wait: 'true' } },
    );
    expect(spawned.body.state).toBe('ready');
    workerId = spawned.body.id;
    workerPath = `/orgs/${bed.org.id}/projects/${project.body.id}/workers/${workerId}`;
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  it('lists terminals and commands again, reattaches with the scrollback, serves command output', async () => {
    const before = await openSocket(socketUrl('session=kept&cols=80&rows=20'), bed.owner.token);
    await before.frame((f) => f.type === 'ready');
    before.input('for i in $(seq 1 50); do echo "kept-row $i"; done\r');
    await before.waitForOutput('kept-row 50');
    before.close();
    const command = withStatus(
      await bed.t.api.post(
        `${workerPath}/exec`,
        { command: 'echo begun; sleep 3; echo finished >&2; exit 5', background: true },
        as(),
      ),
      202,
    );

    await node.agent.stop();
    await waitForNodeStatus(bed, node.id, 'offline');
    startAgent(bed, docker, node.token);
    await waitForNodeStatus(bed, node.id, 'online');

    const terminals = await bed.t.api.get(`${workerPath}/terminals`, as());
    expect(terminals.body.map((t) => t.name)).toEqual(['kept']);
    const commands = await bed.t.api.get(`${workerPath}/commands`, as());
    expect(commands.body.map((c) => c.id)).toEqual([command.body.id]);

    const after = await openSocket(socketUrl('session=kept'), bed.owner.token);
    await after.frame((f) => f.type === 'ready');
    await after.waitForOutput('kept-row 1\r\n');
    await after.waitForOutput('kept-row 50');
    after.close();

    const ended = await eventually(async () => {
      const got = await bed.t.api.get(`${workerPath}/commands/${command.body.id}`, as());
      return got.body.state === 'running' ? undefined : got.body;
    });
    expect(ended).toMatchObject({
      state: 'exited',
      exitCode: 5,
      stdout: 'begun\n',
      stderr: 'finished\n',
    });
  });
});
