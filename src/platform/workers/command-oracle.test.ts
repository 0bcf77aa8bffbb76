import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import {
  connectFakeAgent,
  type FakeAgent,
  type FakeAnswer,
  fakeContainers,
} from '../../../test/helpers/fake-agent.js';
import { withStatus } from '../../../test/helpers/http.js';
import { waitForNodeStatus } from '../../../test/helpers/nodes.js';

/**
 * A command id of another worker (here, on the same node, where the agent
 * knows it) answers exactly what an id that never existed answers: the
 * command routes are no oracle for ids outside the worker asked about.
 */
describe('command ids of other workers', () => {
  const bed = useNodeBed();
  let agent: FakeAgent;
  let projectId: string;
  const commands = new Map<string, string>();

  beforeAll(async () => {
    const containers = fakeContainers();
    const runtime = (
      method: string,
      params: unknown,
      id: string,
    ): FakeAnswer | Promise<FakeAnswer> => {
      const p = (params ?? {}) as { containerId?: string; commandId?: string; command?: string[] };
      const record = (commandId: string, containerId: string) => ({
        id: commandId,
        containerId,
        command: ['sleep', '60'],
        state: 'running',
        exitCode: null,
        error: null,
        startedAt: new Date().toISOString(),
        endedAt: null,
        outputBytes: 0,
        droppedBytes: 0,
      });
      if (method === 'command.start') {
        const commandId = randomUUID();
        commands.set(commandId, p.containerId ?? '');
        return { result: record(commandId, p.containerId ?? '') };
      }
      if (method === 'command.get' || method === 'command.cancel') {
        const containerId = commands.get(p.commandId ?? '');
        if (containerId === undefined) {
          return { error: { code: 'command_not_found', message: `no command ${p.commandId}` } };
        }
        const info = record(p.commandId ?? '', containerId);
        return { result: method === 'command.get' ? { ...info, stdout: '', stderr: '' } : info };
      }
      return containers(method, params, id);
    };
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes`,
      { name: 'fake' },
      { token: bed.owner.token },
    );
    agent = connectFakeAgent(bed.baseUrl, created.body.token, runtime);
    await agent.welcomed;
    await waitForNodeStatus(bed, created.body.node.id, 'online');
    const project = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      { name: 'oracle' },
      { token: bed.owner.token },
    );
    projectId = project.body.id;
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('answers the same for a command of another worker and for an unknown id, on get and cancel', async () => {
    const as = { token: bed.owner.token };
    const base = `/orgs/${bed.org.id}/projects/${projectId}/workers` as const;
    const spawn = async () => {
      const spawned = withStatus(await bed.t.api.post(`${base}?wait=true`, {}, as), 201);
      expect(spawned.body.state, spawned.text).toBe('ready');
      return spawned.body.id;
    };
    const mine = await spawn();
    const theirs = await spawn();
    const started = withStatus(
      await bed.t.api.post(
        `/orgs/${bed.org.id}/projects/${projectId}/workers/${theirs}/exec`,
        { command: 'sleep 60', background: true },
        as,
      ),
      202,
    );
    const commandId = started.body.id;
    const own = await bed.t.api.get(`${base}/${theirs}/commands/${commandId}`, as);
    expect(own.status, own.text).toBe(200);

    const unknownId = randomUUID();
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/cancel'],
    ] as const) {
      const send = (id: string) =>
        method === 'GET'
          ? bed.t.api.get(`${base}/${mine}/commands/${id}${suffix}`, as)
          : bed.t.api.post(`${base}/${mine}/commands/${id}${suffix}`, undefined, as);
      const other = await send(commandId);
      const unknown = await send(unknownId);
      expect(other.status, other.text).toBe(404);
      expect(other.body.error.code).toBe('command_not_found');
      // The whole body, message and details included, does not depend on the id.
      expect(other.text.replaceAll(commandId, 'ID')).toBe(unknown.text.replaceAll(unknownId, 'ID'));
    }
  });
});
