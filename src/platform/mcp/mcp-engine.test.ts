import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTestEngine, describeEngine, eventually } from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import { type GitServer, startGitServer } from '../../../test/helpers/git-server.js';
import { callError, callOk, connectToolClient } from '../../../test/helpers/mcp.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { addMember, createKey, createOrg } from '../../../test/helpers/platform.js';

/** What an agent does with the tool server, on a real node: every call through the SDK client. */
describeEngine('an agent working through the tool server', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let repo: GitServer;
  let projectId: string;
  let workerId: string;
  let tools: Client;
  let noExec: Client;

  beforeAll(async () => {
    docker = await connectTestEngine();
    repo = await startGitServer();
    bed = await createNodeTestBed();
    await onlineNode(bed, docker);
    const project = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      { name: 'agent-app', repositories: [{ url: repo.url }] },
      { token: bed.owner.token },
    );
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const key = await createKey(bed.t, bed.org, bed.owner, [
      'projects:read',
      'workers:read',
      'workers:write',
      'workers:exec',
      'nodes:read',
    ]);
    tools = await connectToolClient(bed.baseUrl, key.token);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['projects:read', 'workers:read']);
    noExec = await connectToolClient(bed.baseUrl, reader.token);
  });
  afterAll(async () => {
    await tools?.close();
    await noExec?.close();
    await bed.close();
    await removeOrgContainers(docker, bed.org);
    await repo.close();
  });

  it('creates a worker and waits until it is ready', async () => {
    const created = await callOk(tools, 'create_worker', { projectId, name: 'agent-1' }, 180_000);
    expect(created.worker).toMatchObject({ name: 'agent-1', projectId, state: 'ready' });
    workerId = String((created.worker as { id: string }).id);
    const found = await callOk(tools, 'search', { query: 'AGENT' });
    expect(found.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'worker', id: workerId, projectId, state: 'ready' }),
        expect.objectContaining({ kind: 'project', id: projectId }),
      ]),
    );
    const listed = await callOk(tools, 'list_workers');
    expect(listed.workers).toEqual([expect.objectContaining({ id: workerId })]);
    const got = await callOk(tools, 'get_worker', { workerId });
    expect(got.worker).toMatchObject({ id: workerId, state: 'ready' });
  });

  it('runs a command and answers its exit code and output', async () => {
    const ran = await callOk(tools, 'run_command', {
      workerId,
      command: 'cat; echo oops >&2; exit 3',
      stdin: 'hello',
    });
    expect(ran).toMatchObject({
      background: false,
      exitCode: 3,
      stdout: 'hello',
      stderr: 'oops\n',
      timedOut: false,
    });
    const argv = await callOk(tools, 'run_command', {
      workerId,
      projectId,
      command: ['sh', '-c', 'pwd'],
      workdir: '/workspaces/project',
    });
    expect(argv.stdout).toBe('/workspaces/project\n');
  });

  it('runs a command in the background, follows, lists and cancels it', async () => {
    const started = await callOk(tools, 'run_command', {
      workerId,
      command: 'sleep 1; echo finished',
      background: true,
    });
    expect(started.background).toBe(true);
    const command = started.command as { id: string; state: string };
    expect(command.state).toBe('running');
    const done = await eventually(
      async () => {
        const got = await callOk(tools, 'get_command', { workerId, commandId: command.id });
        const info = got.command as { state: string };
        return info.state === 'running' ? undefined : info;
      },
      30_000,
      'the background command to end',
    );
    expect(done).toMatchObject({ state: 'exited', exitCode: 0, stdout: 'finished\n' });
    const long = await callOk(tools, 'run_command', {
      workerId,
      command: 'sleep 120',
      background: true,
    });
    const longId = (long.command as { id: string }).id;
    const listed = await callOk(tools, 'list_commands', { workerId });
    expect((listed.commands as Array<{ id: string }>).map((c) => c.id)).toEqual(
      expect.arrayContaining([command.id, longId]),
    );
    await callOk(tools, 'cancel_command', { workerId, commandId: longId });
    await eventually(
      async () => {
        const got = await callOk(tools, 'get_command', { workerId, commandId: longId });
        return (got.command as { state: string }).state === 'cancelled' ? true : undefined;
      },
      30_000,
      'the command to be cancelled',
    );
  });

  it('reads logs, git status, ports and terminals', async () => {
    await callOk(tools, 'run_command', {
      workerId,
      command: 'echo from-the-agent > /proc/1/fd/1; echo change >> /workspaces/project/README.md',
    });
    const logs = await callOk(tools, 'get_worker_logs', { workerId, tail: 5 });
    expect(logs.logs).toContain('from-the-agent');
    const status = await callOk(tools, 'get_worker_git_status', { workerId });
    expect(status.repositories).toEqual([
      expect.objectContaining({
        path: '/workspaces/project',
        clean: false,
        files: [expect.objectContaining({ path: 'README.md' })],
      }),
    ]);
    const ports = await callOk(tools, 'list_worker_ports', { workerId });
    expect(ports).toMatchObject({ listening: expect.any(Array), forwarded: [] });
    const terminals = await callOk(tools, 'list_worker_terminals', { workerId });
    expect(terminals.terminals).toEqual(expect.any(Array));
    const nodes = await callOk(tools, 'list_nodes');
    expect(nodes.nodes).toEqual([expect.objectContaining({ status: 'online' })]);
  });

  it('refuses run_command to a key without workers:exec, naming the scope', async () => {
    const message = await callError(noExec, 'run_command', { workerId, command: 'true' });
    expect(message).toContain('missing_scope');
    expect(message).toContain('"workers:exec"');
    // The same key reads the worker.
    await callOk(noExec, 'get_worker', { workerId });
    const stop = await callError(noExec, 'stop_worker', { workerId });
    expect(stop).toContain('workers:write');
  });

  it('finds a worker by id alone for a session in several organizations, and for no outsider', async () => {
    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    await createOrg(bed.t, member, 'Side project');
    const memberTools = await connectToolClient(bed.baseUrl, member.token);
    const outsider = await createUser(bed.t);
    const elsewhere = await createOrg(bed.t, outsider, 'Elsewhere');
    const outsiderTools = await connectToolClient(bed.baseUrl, outsider.token);
    const foreignKey = await createKey(bed.t, elsewhere, outsider, ['*'], 'org');
    const foreignTools = await connectToolClient(bed.baseUrl, foreignKey.token);
    try {
      const found = await callOk(memberTools, 'get_worker', { workerId });
      expect(found.worker).toMatchObject({ id: workerId, orgId: bed.org.id });
      // Another organization's id given explicitly: as if the worker did not exist.
      expect(await callError(memberTools, 'get_worker', { workerId, orgId: elsewhere.id })).toMatch(
        /^not_found: worker/,
      );
      expect(await callError(outsiderTools, 'get_worker', { workerId })).toMatch(
        /^not_found: worker/,
      );
      expect(await callError(foreignTools, 'get_worker', { workerId })).toMatch(
        /^not_found: worker/,
      );
      expect(
        await callError(foreignTools, 'run_command', {
          workerId,
          orgId: bed.org.id,
          command: 'true',
        }),
      ).toMatch(/not_found/);
    } finally {
      await Promise.all([memberTools.close(), outsiderTools.close(), foreignTools.close()]);
    }
  });

  it('stops, starts and deletes the worker', async () => {
    const stopped = await callOk(tools, 'stop_worker', { workerId }, 180_000);
    expect(stopped.worker).toMatchObject({ state: 'stopped' });
    const started = await callOk(tools, 'start_worker', { workerId }, 180_000);
    expect(started.worker).toMatchObject({ state: 'ready' });
    const deleted = await callOk(tools, 'delete_worker', { workerId }, 180_000);
    expect(deleted).toEqual({ deleted: true });
    const gone = await callError(tools, 'get_worker', { workerId });
    expect(gone).toMatch(/^not_found/);
  });
});
