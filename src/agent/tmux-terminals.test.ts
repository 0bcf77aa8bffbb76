import { expect, it } from 'vitest';
import { useContainer } from '../../test/fixtures/container.js';
import { describeEngine, eventually, WORKSPACE_IMAGE } from '../../test/helpers/engine.js';
import { terminalClient } from '../../test/helpers/terminal-client.js';
import { execRun } from './exec.js';
import { TerminalManager } from './terminals.js';

/** Sessions in an image with tmux: tmux holds them, so a new agent (manager) finds them again. */
describeEngine('terminals held by tmux', () => {
  const container = useContainer(WORKSPACE_IMAGE);

  it('runs the program in tmux; another manager lists it and reattaches with the scrollback', async () => {
    const first = new TerminalManager(container.docker, 1000);
    const info = await first.create({
      containerId: container.id,
      name: 'dev.1',
      cols: 90,
      rows: 20,
    });
    expect(info).toMatchObject({ name: 'dev.1', cols: 90, rows: 20 });
    await expect(first.create({ containerId: container.id, name: 'dev.1' })).rejects.toMatchObject({
      code: 'terminal_exists',
    });
    const ps = await execRun(container.docker, container.id, { command: ['ps', '-eo', 'args'] });
    expect(ps.stdout).toContain('tmux');

    const watcher = terminalClient();
    const attachment = (await first.find(container.id, 'dev.1')).open(watcher.sink);
    attachment.input(
      Buffer.from('for i in $(seq 1 100); do echo "row $i"; done; echo "ctrl-b:\x02:"\r'),
    );
    await watcher.waitFor('row 100');
    await watcher.waitFor('ctrl-b::');
    expect((await first.listFresh(container.id))[0]).toMatchObject({
      name: 'dev.1',
      attachments: 1,
    });
    attachment.close();

    // A new manager, as after an agent restart: the session is found in the container.
    const second = new TerminalManager(container.docker, 1000);
    await second.recover([container.id]);
    expect(second.list(container.id)).toMatchObject([
      { name: 'dev.1', cols: 90, rows: 20, attachments: 0, command: info.command },
    ]);
    const returning = terminalClient();
    const again = (await second.find(container.id, 'dev.1')).open(returning.sink, {
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
    expect(await second.listFresh(container.id)).toEqual([]);
  });

  it('kills a session by name and its program with it', async () => {
    const manager = new TerminalManager(container.docker, 1000);
    await manager.create({ containerId: container.id, name: 'doomed', command: ['sleep', '778'] });
    const watcher = terminalClient();
    (await manager.find(container.id, 'doomed')).open(watcher.sink);
    await eventually(async () => {
      const ps = await execRun(container.docker, container.id, { command: ['ps', '-eo', 'args'] });
      return ps.stdout.includes('sleep 778') ? true : undefined;
    });
    await manager.kill(container.id, 'doomed');
    await eventually(() => (watcher.ended() === undefined ? undefined : true));
    const ps = await execRun(container.docker, container.id, { command: ['ps', '-eo', 'args'] });
    expect(ps.stdout).not.toContain('sleep 778');
    await expect(manager.kill(container.id, 'doomed')).rejects.toMatchObject({
      code: 'terminal_not_found',
    });
  });

  it('creates a name once, whatever the concurrency, also across two managers', async () => {
    const a = new TerminalManager(container.docker, 1000);
    const b = new TerminalManager(container.docker, 1000);
    for (let round = 0; round < 5; round++) {
      const name = `race-${round}`;
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? a : b).create({ containerId: container.id, name, command: ['sh'] }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toMatchObject({ code: 'terminal_exists' });
        }
      }
      expect((await a.listFresh(container.id)).map((t) => t.name)).toEqual([name]);
      await a.kill(container.id, name);
    }
  });

  it('refuses a name being created only once it can be attached (two tabs opening one new session)', async () => {
    // Held by tmux, and held by the agent (an image without tmux).
    const managers = [
      new TerminalManager(container.docker, 1000),
      new TerminalManager(container.docker, 1000, { multiplexer: false }),
    ];
    for (let round = 0; round < 6; round++) {
      const manager = managers[round % 2] as TerminalManager;
      const name = `tabs-${round}`;
      const attached = await Promise.allSettled(
        Array.from({ length: 4 }, async () => {
          await manager
            .create({ containerId: container.id, name, command: ['sh'] })
            .catch((error: unknown) => {
              if ((error as { code?: unknown }).code !== 'terminal_exists') throw error;
            });
          // What the server does next: attach at once.
          return (await manager.find(container.id, name)).info().name;
        }),
      );
      expect(attached).toEqual(Array(4).fill({ status: 'fulfilled', value: name }));
      await manager.kill(container.id, name);
    }
  });
});
