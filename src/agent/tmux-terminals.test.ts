import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../test/helpers/engine.js';
import { createContainer, startContainer } from './containers.js';
import { execRun } from './exec.js';
import type { TerminalSink } from './terminal-session.js';
import { TerminalManager } from './terminals.js';

function client() {
  const chunks: Buffer[] = [];
  let exitCode: number | null | undefined;
  const sink: TerminalSink = {
    data: (bytes) => chunks.push(bytes),
    end: (code) => {
      exitCode = code;
    },
  };
  return {
    sink,
    text: () => Buffer.concat(chunks).toString('utf8'),
    ended: () => exitCode,
    waitFor: (needle: string) =>
      eventually(() => (Buffer.concat(chunks).includes(needle) ? true : undefined), 20_000, needle),
  };
}

/** Sessions in an image with tmux: tmux holds them, so a new agent (manager) finds them again. */
describeEngine('terminals held by tmux', () => {
  let docker: Docker;
  let container: string;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    const created = await createContainer(
      docker,
      { image: WORKSPACE_IMAGE, labels },
      { init: true },
    );
    await startContainer(docker, created.id);
    container = created.id;
  });
  afterAll(async () => {
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('runs the program in tmux; another manager lists it and reattaches with the scrollback', async () => {
    const first = new TerminalManager(docker, 1000);
    const info = await first.create({ containerId: container, name: 'dev.1', cols: 90, rows: 20 });
    expect(info).toMatchObject({ name: 'dev.1', cols: 90, rows: 20 });
    await expect(first.create({ containerId: container, name: 'dev.1' })).rejects.toMatchObject({
      code: 'terminal_exists',
    });
    const ps = await execRun(docker, container, { command: ['ps', '-eo', 'args'] });
    expect(ps.stdout).toContain('tmux');

    const watcher = client();
    const attachment = (await first.find(container, 'dev.1')).open(watcher.sink);
    attachment.input(
      Buffer.from('for i in $(seq 1 100); do echo "row $i"; done; echo "ctrl-b:\x02:"\r'),
    );
    await watcher.waitFor('row 100');
    await watcher.waitFor('ctrl-b::');
    expect((await first.listFresh(container))[0]).toMatchObject({ name: 'dev.1', attachments: 1 });
    attachment.close();

    // A new manager, as after an agent restart: the session is found in the container.
    const second = new TerminalManager(docker, 1000);
    await second.recover([container]);
    expect(second.list(container)).toMatchObject([
      { name: 'dev.1', cols: 90, rows: 20, attachments: 0, command: info.command },
    ]);
    const returning = client();
    const again = (await second.find(container, 'dev.1')).open(returning.sink, {
      cols: 100,
      rows: 30,
    });
    // Row 1 scrolled off the 20-row screen long ago: it comes back from the scrollback.
    await returning.waitFor('row 1\r\n');
    await returning.waitFor('row 100');
    // tmux resizes the pane a moment after the client (and draws spaces as cursor moves).
    await eventually(async () => {
      again.input(Buffer.from('stty size | tr " " x\r'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return returning.text().includes('30x100') ? true : undefined;
    });
    again.input(Buffer.from('exit 3\r'));
    expect(await eventually(() => returning.ended())).toBe(3);
    expect(await second.listFresh(container)).toEqual([]);
  });

  it('kills a session by name and its program with it', async () => {
    const manager = new TerminalManager(docker, 1000);
    await manager.create({ containerId: container, name: 'doomed', command: ['sleep', '778'] });
    const watcher = client();
    (await manager.find(container, 'doomed')).open(watcher.sink);
    await eventually(async () => {
      const ps = await execRun(docker, container, { command: ['ps', '-eo', 'args'] });
      return ps.stdout.includes('sleep 778') ? true : undefined;
    });
    await manager.kill(container, 'doomed');
    await eventually(() => (watcher.ended() === undefined ? undefined : true));
    const ps = await execRun(docker, container, { command: ['ps', '-eo', 'args'] });
    expect(ps.stdout).not.toContain('sleep 778');
    await expect(manager.kill(container, 'doomed')).rejects.toMatchObject({
      code: 'terminal_not_found',
    });
  });

  it('creates a name once, whatever the concurrency, also across two managers', async () => {
    const a = new TerminalManager(docker, 1000);
    const b = new TerminalManager(docker, 1000);
    for (let round = 0; round < 5; round++) {
      const name = `race-${round}`;
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? a : b).create({ containerId: container, name, command: ['sh'] }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toMatchObject({ code: 'terminal_exists' });
        }
      }
      expect((await a.listFresh(container)).map((t) => t.name)).toEqual([name]);
      await a.kill(container, name);
    }
  });
});
