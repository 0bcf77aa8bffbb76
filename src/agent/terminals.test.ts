import xtermHeadless from '@xterm/headless';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../test/helpers/engine.js';
import { terminalClient } from '../../test/helpers/terminal-client.js';
import { createContainer, startContainer } from './containers.js';
import { execRun } from './exec.js';
import { SNAPSHOT_PREFIX } from './terminal-session.js';
import { TerminalManager } from './terminals.js';

/** What a fresh terminal shows after being fed `bytes`: a client that reattached. */
async function render(bytes: Buffer, cols: number, rows: number) {
  const terminal = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++)
    lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  const screen = lines.slice(buffer.baseY);
  return { type: buffer.type, lines, screen, cursor: [buffer.cursorX, buffer.cursorY] };
}

describeEngine('persistent terminals', () => {
  let docker: Docker;
  let terminals: TerminalManager;
  let busybox: string;
  let workspace: string;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    // The agent holds these sessions (tmux-terminals.test.ts covers sessions held by tmux).
    terminals = new TerminalManager(docker, 1000, { multiplexer: false });
    const a = await createContainer(docker, { image: BUSYBOX_IMAGE, labels }, { init: true });
    const b = await createContainer(docker, { image: WORKSPACE_IMAGE, labels }, { init: true });
    await Promise.all([startContainer(docker, a.id), startContainer(docker, b.id)]);
    busybox = a.id;
    workspace = b.id;
  });

  afterAll(async () => {
    if (docker !== undefined) await removeLabelled(docker, labels);
  });

  it('creates, lists, attaches, takes input from two clients at once, resizes', async () => {
    const info = await terminals.create({ containerId: busybox, name: 'main', cols: 80, rows: 24 });
    expect(info).toMatchObject({ name: 'main', containerId: busybox, cols: 80, rows: 24 });
    expect(terminals.list(busybox).map((t) => t.name)).toEqual(['main']);
    await expect(terminals.create({ containerId: busybox, name: 'main' })).rejects.toMatchObject({
      code: 'terminal_exists',
    });

    const session = terminals.get(busybox, 'main');
    const first = terminalClient();
    const second = terminalClient();
    const detachFirst = session.attach(first.sink);
    const detachSecond = session.attach(second.sink);
    expect(terminals.list(busybox)[0]?.attachments).toBe(2);
    await first.waitFor(SNAPSHOT_PREFIX);
    expect(first.chunks[0]?.subarray(0, 2).toString()).toBe(SNAPSHOT_PREFIX);

    session.input(Buffer.from('echo hello-$((6*7))\r'));
    await first.waitFor('hello-42');
    await second.waitFor('hello-42');
    session.input(Buffer.from('echo from-second-$((1+1))\r'));
    await first.waitFor('from-second-2');

    await session.resize(100, 30);
    session.input(Buffer.from('stty size\r'));
    await second.waitFor('30 100');
    expect(terminals.list(busybox)[0]).toMatchObject({ cols: 100, rows: 30 });

    detachFirst();
    detachSecond();
    expect(terminals.list(busybox)[0]?.attachments).toBe(0);
  });

  it('keeps the program running detached and restores screen and scrollback on reattach', async () => {
    const session = terminals.get(busybox, 'main');
    // Typed while nobody is attached: the program runs on.
    session.input(Buffer.from('i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo "row $i"; done\r'));
    const probe = terminalClient();
    const detachProbe = session.attach(probe.sink);
    await probe.waitFor('row 60');
    detachProbe();

    const again = terminalClient();
    const detach = session.attach(again.sink);
    await again.waitFor('row 60');
    const view = await render(again.bytes(), 100, 30);
    // Scrollback: lines long gone from the 30-row screen come back too.
    expect(view.lines).toContain('hello-42');
    expect(view.lines).toContain('row 1');
    expect(view.lines).toContain('row 60');
    detach();
  });

  it('brings a full-screen program back intact: alternate screen, drawing and cursor', async () => {
    const info = await terminals.create({
      containerId: workspace,
      name: 'editor',
      cols: 60,
      rows: 20,
      command: [
        'bash',
        '-c',
        "printf '\\033[?1049h\\033[2J\\033[3;5HFULL SCREEN\\033[20;1H-- status --\\033[7;9H'; read -r line",
      ],
    });
    expect(info.command[0]).toBe('bash');
    const session = terminals.get(workspace, 'editor');
    const watcher = terminalClient();
    const stop = session.attach(watcher.sink);
    await watcher.waitFor('-- status --');
    stop();

    const returning = terminalClient();
    const detach = session.attach(returning.sink);
    await returning.waitFor('-- status --');
    const view = await render(returning.bytes(), 60, 20);
    expect(view.type).toBe('alternate');
    expect(view.screen[2]).toBe('    FULL SCREEN');
    expect(view.screen[19]).toBe('-- status --');
    expect(view.cursor).toEqual([8, 6]);
    detach();
  });

  it('brings a real editor back: vi with its file and its cursor', async () => {
    await execRun(docker, busybox, {
      command: ['sh', '-c', 'printf "first line\\nsecond line\\n" > /tmp/notes.txt'],
    });
    await terminals.create({
      containerId: busybox,
      name: 'vi',
      cols: 50,
      rows: 12,
      command: ['vi', '/tmp/notes.txt'],
    });
    const session = terminals.get(busybox, 'vi');
    const watcher = terminalClient();
    const stop = session.attach(watcher.sink);
    await watcher.waitFor('second line');
    session.input(Buffer.from('jwiNEW \x1b'));
    await watcher.waitFor('NEW');
    stop();

    const returning = terminalClient();
    const detach = session.attach(returning.sink);
    await returning.waitFor('NEW');
    const view = await render(returning.bytes(), 50, 12);
    expect(view.screen[0]).toBe('first line');
    expect(view.screen[1]).toBe('second NEW line');
    expect(view.screen[2]).toBe('~');
    expect(view.cursor).toEqual([10, 1]);
    detach();
    await terminals.kill(busybox, 'vi');
  });

  it('keeps bytes raw: output that is not UTF-8 arrives as sent', async () => {
    await terminals.create({ containerId: busybox, name: 'bytes', command: ['sh'] });
    const session = terminals.get(busybox, 'bytes');
    const watcher = terminalClient();
    session.attach(watcher.sink);
    session.input(Buffer.from("printf 'A\\377\\376B\\n'\r"));
    await eventually(() =>
      watcher.bytes().includes(Buffer.from([0x41, 0xff, 0xfe, 0x42])) ? 1 : undefined,
    );
    await terminals.kill(busybox, 'bytes');
  });

  it('ends a session whose program exits, telling attached clients the exit code', async () => {
    await terminals.create({ containerId: busybox, name: 'short', command: ['sh'] });
    const session = terminals.get(busybox, 'short');
    const watcher = terminalClient();
    session.attach(watcher.sink);
    session.input(Buffer.from('exit 5\r'));
    expect(await eventually(() => watcher.ended())).toBe(5);
    expect(terminals.list(busybox).map((t) => t.name)).not.toContain('short');
    expect(() => terminals.get(busybox, 'short')).toThrow(
      expect.objectContaining({ code: 'terminal_not_found' }),
    );
  });

  it('refuses a container that is not there, and ends sessions whose container goes', async () => {
    await expect(
      terminals.create({ containerId: 'sparrow-no-such-container', name: 'x' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const doomed = await createContainer(docker, { image: BUSYBOX_IMAGE, labels }, { init: true });
    await startContainer(docker, doomed.id);
    await terminals.create({ containerId: doomed.id, name: 'gone', command: ['sh'] });
    const watcher = terminalClient();
    terminals.get(doomed.id, 'gone').attach(watcher.sink);
    await docker.getContainer(doomed.id).remove({ force: true });
    await eventually(() => (watcher.ended() === undefined ? undefined : true));
    expect(terminals.list(doomed.id)).toEqual([]);
  });

  it('kills a session by name: its processes end and clients are told', async () => {
    const session = terminals.get(busybox, 'main');
    const watcher = terminalClient();
    session.attach(watcher.sink);
    session.input(Buffer.from('sleep 777\r'));
    await eventually(async () => {
      const ps = await execRun(docker, busybox, { command: ['ps', '-o', 'args'] });
      return ps.stdout.includes('sleep 777') ? true : undefined;
    });
    await terminals.kill(busybox, 'main');
    expect(watcher.ended()).not.toBeUndefined();
    expect(terminals.list(busybox)).toEqual([]);
    const ps = await execRun(docker, busybox, { command: ['ps', '-o', 'args'] });
    expect(ps.stdout).not.toContain('sleep 777');
    await expect(terminals.kill(busybox, 'main')).rejects.toMatchObject({
      code: 'terminal_not_found',
    });
  });
});
