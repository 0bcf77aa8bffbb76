import xtermHeadless from '@xterm/headless';
import { expect, it } from 'vitest';
import { useContainer } from '../../test/fixtures/container.js';
import { describeEngine, eventually, WORKSPACE_IMAGE } from '../../test/helpers/engine.js';
import { terminalClient } from '../../test/helpers/terminal-client.js';
import { TerminalManager } from './terminals.js';

const ESC = String.fromCharCode(0x1b);

/** The lines the bytes print, as a program wrote them: escape sequences and CRs dropped. */
function printedLines(bytes: Buffer): string[] {
  return bytes
    .toString('utf8')
    .replace(new RegExp(`${ESC}\\[[0-9;?]*[a-zA-Z]`, 'g'), '')
    .split('\n')
    .map((line) => line.replace(/\r/g, ''));
}

/** What a terminal of this size shows after these bytes: scrollback and screen, line by line. */
async function shownLines(bytes: Buffer, cols: number, rows: number): Promise<string[]> {
  const terminal = new xtermHeadless.Terminal({
    cols,
    rows,
    scrollback: 100_000,
    allowProposedApi: true,
  });
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  }
  terminal.dispose();
  return lines;
}

/** The numbers of the `row N` lines shown, in the order shown. */
async function rowsShown(bytes: Buffer, cols = 80, rows = 24): Promise<number[]> {
  return (await shownLines(bytes, cols, rows))
    .map((line) => /^row (\d+)$/.exec(line)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** A run of the last lines up to `last`, each once, in order, at least `atLeast` of them. */
function expectTail(numbers: number[], last: number, atLeast: number) {
  const first = numbers[0] ?? 0;
  expect(numbers).toEqual(range(first, last));
  expect(numbers.length).toBeGreaterThanOrEqual(atLeast);
}

/** Output of a terminal in tmux, after an agent restart too: the program's bytes, all of them. */
describeEngine('terminals held by tmux: exact output', () => {
  const container = useContainer(WORKSPACE_IMAGE);

  /** `seq 1 60000`, ended by a marker of its own (the replayed screen may hold an earlier one). */
  async function flood(manager: TerminalManager, name: string, marker: number) {
    const watcher = terminalClient(60_000);
    const attachment = (await manager.find(container.id, name)).open(watcher.sink, {
      cols: 80,
      rows: 24,
    });
    await eventually(() => (watcher.chunks.length > 0 ? true : undefined));
    attachment.input(Buffer.from(`seq 1 60000; echo END-$((${marker}+1))\r`));
    await watcher.waitFor(`END-${marker + 1}`, 120_000);
    // After the replayed screen (the first chunk): the live output.
    const live = Buffer.concat(watcher.chunks.slice(1));
    const numbers = printedLines(live).filter((line) => /^\d+$/.test(line));
    expect(numbers.map(Number)).toEqual(range(1, 60000));
    attachment.close();
  }

  it('a flood reaches the client complete and in order, also after an agent restart', async () => {
    const first = new TerminalManager(container.docker, 1000);
    await first.create({ containerId: container.id, name: 'flood' });
    await flood(first, 'flood', 100);
    await first.close();
    const second = new TerminalManager(container.docker, 1000);
    await second.recover([container.id]);
    await flood(second, 'flood', 200);
    await second.kill(container.id, 'flood');
  });

  it('reattaching restores the last lines once each, in order, also after an agent restart', async () => {
    const first = new TerminalManager(container.docker, 1000);
    await first.create({ containerId: container.id, name: 'log', cols: 80, rows: 24 });
    const watcher = terminalClient(60_000);
    const attachment = (await first.find(container.id, 'log')).open(watcher.sink);
    attachment.input(Buffer.from("seq -f 'row %g' 1 3000; echo END-$((6*7))\r"));
    await watcher.waitFor('END-42');
    attachment.close();

    // The terminal's scrollback (1000 lines) and screen, rows 2000 and later, each once.
    const returning = terminalClient(60_000);
    const again = (await first.find(container.id, 'log')).open(returning.sink, {
      cols: 80,
      rows: 24,
    });
    await eventually(async () => {
      const numbers = await rowsShown(returning.bytes());
      return numbers.at(-1) === 3000 ? true : undefined;
    });
    expectTail(await rowsShown(returning.bytes()), 3000, 1000);
    again.close();

    // A new agent: tmux's history (1000 lines) and screen, each once, then live output.
    await first.close();
    const second = new TerminalManager(container.docker, 1000);
    await second.recover([container.id]);
    const afterRestart = terminalClient(60_000);
    const third = (await second.find(container.id, 'log')).open(afterRestart.sink, {
      cols: 80,
      rows: 24,
    });
    await eventually(async () => {
      const numbers = await rowsShown(afterRestart.bytes());
      return numbers.at(-1) === 3000 ? true : undefined;
    });
    expectTail(await rowsShown(afterRestart.bytes()), 3000, 1000);
    third.input(Buffer.from("seq -f 'row %g' 3001 3100\r"));
    await eventually(async () => {
      const numbers = await rowsShown(afterRestart.bytes());
      return numbers.at(-1) === 3100 ? true : undefined;
    });
    expectTail(await rowsShown(afterRestart.bytes()), 3100, 1100);
    third.close();
    await second.kill(container.id, 'log');
  });

  it('two clients of one session get the same bytes', async () => {
    const manager = new TerminalManager(container.docker, 1000);
    await manager.create({ containerId: container.id, name: 'shared' });
    const terminal = await manager.find(container.id, 'shared');
    const a = terminalClient(60_000);
    const b = terminalClient(60_000);
    const first = terminal.open(a.sink, { cols: 80, rows: 24 });
    terminal.open(b.sink, { cols: 80, rows: 24 });
    await eventually(() => (a.chunks.length > 0 && b.chunks.length > 0 ? true : undefined));
    first.input(
      Buffer.from("printf '\\033[31mred\\033[0m é\\n'; seq 1 20000; echo END-$((6*7))\r"),
    );
    await a.waitFor('END-42\r\n');
    await b.waitFor('END-42\r\n');
    const from = (bytes: Buffer) => bytes.subarray(bytes.indexOf('printf'));
    await eventually(() => (from(a.bytes()).length === from(b.bytes()).length ? true : undefined));
    expect(from(a.bytes()).equals(from(b.bytes()))).toBe(true);
    expect(from(a.bytes()).includes('\x1b[31mred\x1b[0m é')).toBe(true);
    await manager.kill(container.id, 'shared');
  });

  it('a full-screen program shows again on reattach, also after an agent restart', async () => {
    const first = new TerminalManager(container.docker, 1000);
    await first.create({ containerId: container.id, name: 'pager', cols: 80, rows: 24 });
    const watcher = terminalClient(60_000);
    const attachment = (await first.find(container.id, 'pager')).open(watcher.sink);
    attachment.input(Buffer.from("seq -f 'page line %g' 1 200 | less\r"));
    await watcher.waitFor('page line 23');
    attachment.close();

    const screen = async (bytes: Buffer) => (await shownLines(bytes, 80, 24)).slice(-24);
    const expectPager = async (bytes: Buffer) => {
      const shown = await screen(bytes);
      expect(shown.slice(0, 23)).toEqual(range(1, 23).map((n) => `page line ${n}`));
      expect(shown[23]).toMatch(/^:/);
    };
    const returning = terminalClient(60_000);
    const again = (await first.find(container.id, 'pager')).open(returning.sink, {
      cols: 80,
      rows: 24,
    });
    await eventually(() => (returning.chunks.length > 0 ? true : undefined));
    await expectPager(returning.bytes());
    again.close();

    await first.close();
    const second = new TerminalManager(container.docker, 1000);
    await second.recover([container.id]);
    const afterRestart = terminalClient(60_000);
    const third = (await second.find(container.id, 'pager')).open(afterRestart.sink, {
      cols: 80,
      rows: 24,
    });
    await eventually(() => (afterRestart.chunks.length > 0 ? true : undefined));
    await expectPager(afterRestart.bytes());
    // Still the pager's screen: a key moves it one line on.
    third.input(Buffer.from('j'));
    await afterRestart.waitFor('page line 24');
    third.input(Buffer.from('q'));
    await eventually(async () => {
      const shown = await shownLines(afterRestart.bytes(), 80, 24);
      // Back on the normal screen: the prompt on the line below the command, where the pager started.
      return shown[1]?.trimEnd().endsWith(':~#') ? true : undefined;
    });
    third.close();
    await second.kill(container.id, 'pager');
  });
  it('top shows again on reattach, also after an agent restart', async () => {
    const first = new TerminalManager(container.docker, 1000);
    await first.create({ containerId: container.id, name: 'top', cols: 100, rows: 30 });
    const watcher = terminalClient(60_000);
    const attachment = (await first.find(container.id, 'top')).open(watcher.sink);
    attachment.input(Buffer.from('top -d 1\r'));
    await watcher.waitFor('load average');
    attachment.close();

    /** The replayed screen alone (the first chunk) shows top's header and its process table. */
    const expectTop = async (terminal: Awaited<ReturnType<TerminalManager['find']>>) => {
      const returning = terminalClient(60_000);
      const again = terminal.open(returning.sink, { cols: 100, rows: 30 });
      await eventually(() => (returning.chunks.length > 0 ? true : undefined));
      const shown = (await shownLines(returning.chunks[0] ?? Buffer.alloc(0), 100, 30)).slice(-30);
      expect(shown[0]).toMatch(/^top - .*load average/);
      expect(shown.some((line) => /PID\s+USER/.test(line))).toBe(true);
      again.close();
    };
    await expectTop(await first.find(container.id, 'top'));
    await first.close();
    const second = new TerminalManager(container.docker, 1000);
    await second.recover([container.id]);
    await expectTop(await second.find(container.id, 'top'));
    await second.kill(container.id, 'top');
  });
});
