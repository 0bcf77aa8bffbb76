import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectTestEngine, describeEngine, eventually } from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { addMember, createKey } from '../../../test/helpers/platform.js';
import { openSocket, refusedUpgrade } from '../../../test/helpers/ws-client.js';

describeEngine('terminal sessions over WebSocket', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let worker: { id: string };
  let workerPath: `/orgs/${string}/projects/${string}/workers/${string}`;
  const as = () => ({ token: bed.owner.token });
  const socketUrl = (query: string) =>
    `${bed.baseUrl.replace('http', 'ws')}/api/workers/${worker.id}/terminal?${query}`;

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
    await onlineNode(bed, docker);
    const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'term' }, as());
    const spawned = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${project.body.id}/workers`,
      {},
      { ...as(), query: { wait: 'true' } },
    );
    expect(spawned.body.state).toBe('ready');
    worker = spawned.body;
    workerPath = `/orgs/${bed.org.id}/projects/${project.body.id}/workers/${worker.id}`;
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  it('creates, lists and kills named sessions over REST', async () => {
    const created = await bed.t.api.post(`${workerPath}/terminals`, { name: 'build' }, as());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'build', attachments: 0 });
    const twice = await bed.t.api.post(`${workerPath}/terminals`, { name: 'build' }, as());
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('terminal_exists');
    const list = await bed.t.api.get(`${workerPath}/terminals`, as());
    expect(list.body.map((t) => t.name)).toContain('build');
    expect((await bed.t.api.delete(`${workerPath}/terminals/build`, as())).status).toBe(204);
    const gone = await bed.t.api.delete(`${workerPath}/terminals/build`, as());
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('terminal_not_found');
  });

  it('attaches, takes input and resizes; detaching keeps the program, reattaching restores the screen', async () => {
    await bed.t.api.post(`${workerPath}/terminals`, { name: 'dev', cols: 100, rows: 30 }, as());
    const first = await openSocket(socketUrl('mode=terminal&session=dev'), bed.owner.token);
    const ready = await first.frame((f) => f.type === 'ready');
    expect(ready).toMatchObject({ mode: 'terminal', session: 'dev', cols: 100, rows: 30 });
    first.input('echo $((6 * 7))-answer\r');
    await first.waitForOutput('42-answer');
    first.send({ type: 'resize', cols: 91, rows: 23 });
    // The resize reaches the engine on its own request: ask until the new size shows.
    await eventually(async () => {
      first.input('stty size\r');
      await new Promise((resolve) => setTimeout(resolve, 200));
      return first.output().includes('23 91') ? true : undefined;
    });
    first.input('sleep 600 &\r');
    first.close();
    await first.closed;

    const list = await bed.t.api.get(`${workerPath}/terminals`, as());
    expect(list.body.find((t) => t.name === 'dev')).toMatchObject({
      attachments: 0,
    });

    const again = await openSocket(socketUrl('session=dev'), bed.owner.token);
    await again.frame((f) => f.type === 'ready');
    // The restored screen holds what was printed before the detach.
    await again.waitForOutput('42-answer');
    again.input('echo still-$((1 + 1))\r');
    await again.waitForOutput('still-2');
    again.close();
  });

  it('lets two clients share one session', async () => {
    const a = await openSocket(socketUrl('session=shared'), bed.owner.token);
    await a.frame((f) => f.type === 'ready');
    const b = await openSocket(socketUrl('session=shared'), bed.owner.token);
    await b.frame((f) => f.type === 'ready');
    a.input('echo from-a-$((2 + 3))\r');
    await a.waitForOutput('from-a-5');
    await b.waitForOutput('from-a-5');
    b.input('echo from-b-$((3 + 4))\r');
    await a.waitForOutput('from-b-7');
    const list = await bed.t.api.get(`${workerPath}/terminals`, as());
    expect(list.body.find((t) => t.name === 'shared')?.attachments).toBe(2);

    // Killing the session ends it for every client.
    expect((await bed.t.api.delete(`${workerPath}/terminals/shared`, as())).status).toBe(204);
    await a.frame((f) => f.type === 'exit');
    await b.frame((f) => f.type === 'exit');
    expect((await a.closed).code).toBe(1000);
  });

  it('attaches clients opening one new session at the same moment, every one of them', async () => {
    for (let round = 0; round < 4; round++) {
      const session = `together-${round}`;
      const clients = await Promise.all(
        Array.from({ length: 3 }, () =>
          openSocket(socketUrl(`session=${session}`), bed.owner.token),
        ),
      );
      const frames = await Promise.all(
        clients.map((client) =>
          client.frame((f) => f.type === 'ready' || f.type === 'error' || f.type === 'exit'),
        ),
      );
      expect(frames.map((f) => f.type)).toEqual(['ready', 'ready', 'ready']);
      clients[0]?.input(`echo round-$((${round} + 100))\r`);
      await Promise.all(clients.map((client) => client.waitForOutput(`round-${round + 100}`)));
      for (const client of clients) client.close();
      expect((await bed.t.api.delete(`${workerPath}/terminals/${session}`, as())).status).toBe(204);
    }
  });

  it('answers a bad frame with an error and keeps the session', async () => {
    const socket = await openSocket(socketUrl('session=frames'), bed.owner.token);
    await socket.frame((f) => f.type === 'ready');
    socket.socket.send('not json');
    socket.send({ type: 'resize', cols: 'wide', rows: 10 });
    await eventually(() =>
      socket.frames.filter((f) => f.type === 'error' && f.code === 'invalid_frame').length === 2
        ? true
        : undefined,
    );
    socket.input('echo ok-$((5 * 5))\r');
    await socket.waitForOutput('ok-25');
    socket.close();
  });

  it('follows the container logs with mode=logs', async () => {
    const socket = await openSocket(socketUrl('mode=logs&tail=0'), bed.owner.token);
    await socket.frame((f) => f.type === 'ready' && f.mode === 'logs');
    await bed.t.api.post(
      `${workerPath}/exec`,
      { command: 'echo followed-line > /proc/1/fd/1' },
      as(),
    );
    await socket.waitForOutput('followed-line');
    expect(socket.frames.find((f) => f.type === 'output')?.stream).toBe('stdout');
    socket.close();
  });

  it('refuses handshakes without the right credential before the upgrade', async () => {
    const url = socketUrl('session=x');
    expect((await refusedUpgrade(url)).status).toBe(401);
    const bad = await refusedUpgrade(url, { authorization: 'Bearer ses_nope-nope-nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_token');

    const reader = await createKey(bed.t, bed.org, bed.owner, ['workers:read', 'workers:write']);
    const noExec = await refusedUpgrade(url, { authorization: `Bearer ${reader.token}` });
    expect(noExec.status).toBe(403);
    expect(noExec.body.error.code).toBe('missing_scope');

    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    const notTheirs = await refusedUpgrade(url, { authorization: `Bearer ${member.token}` });
    expect(notTheirs.status).toBe(403);

    const stranger = await createUser(bed.t);
    const hidden = await refusedUpgrade(url, { authorization: `Bearer ${stranger.token}` });
    expect(hidden.status).toBe(404);

    const exec = await createKey(bed.t, bed.org, bed.owner, ['workers:exec']);
    const allowed = await openSocket(url, exec.token);
    await allowed.frame((f) => f.type === 'ready');
    allowed.close();

    // A browser has no header: the session cookie works.
    const cookie = await refusedUpgrade(
      `${bed.baseUrl.replace('http', 'ws')}/api/workers/${crypto.randomUUID()}/terminal`,
      { cookie: `session=${bed.owner.token}` },
    );
    expect(cookie.status).toBe(404);
  });

  it('issues a short-lived SSH token that opens the terminal of its worker and nothing else', async () => {
    const issued = await bed.t.api.post(`${workerPath}/ssh-token`, undefined, as());
    expect(issued.status).toBe(201);
    expect(issued.body.token).toMatch(/^sst_/);
    expect(issued.body.terminalUrl).toMatch(new RegExp(`/api/workers/${worker.id}/terminal$`));
    const ttl = Date.parse(issued.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);

    const shell = await openSocket(socketUrl('session=ssh'), issued.body.token);
    await shell.frame((f) => f.type === 'ready');
    shell.input('echo via-ssh-$((8 * 8))\r');
    await shell.waitForOutput('via-ssh-64');
    shell.close();

    const rest = await bed.t.api.get(workerPath, { token: issued.body.token });
    expect(rest.status).toBe(403);
    const elsewhere = await refusedUpgrade(
      `${bed.baseUrl.replace('http', 'ws')}/api/workers/${crypto.randomUUID()}/terminal`,
      { authorization: `Bearer ${issued.body.token}` },
    );
    expect(elsewhere.status).toBe(404);

    const orgKey = await createKey(bed.t, bed.org, bed.owner, ['workers:exec'], 'org');
    const refused = await bed.t.api.post(`${workerPath}/ssh-token`, undefined, {
      token: orgKey.token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('person_required');
  });
});
