import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { Emulator } from './emulator.js';

async function screenOf(snapshot: string, cols: number, rows: number): Promise<string[]> {
  const terminal = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(snapshot, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = buffer.baseY; y < buffer.baseY + rows; y++) {
    lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  }
  return lines;
}

/** Every non-empty line of the snapshot's buffer, scrollback included. */
async function linesOf(snapshot: string, cols: number, rows: number): Promise<string[]> {
  const terminal = new xtermHeadless.Terminal({
    cols,
    rows,
    scrollback: 1000,
    allowProposedApi: true,
  });
  await new Promise<void>((resolve) => terminal.write(snapshot, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)?.translateToString(true) ?? '';
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** Numbered lines of 51 bytes: `line 007 xxx…` and CR LF. */
function numberedLines(count: number): Buffer {
  return Buffer.from(
    Array.from(
      { length: count },
      (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(40)}\r\n`,
    ).join(''),
  );
}

function* chunksOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += size)
    yield bytes.subarray(start, start + size);
}

describe('the session emulator', () => {
  it('snapshots every byte written before the call, and none after', async () => {
    const emulator = new Emulator(20, 3, 100);
    emulator.write(Buffer.from('one\r\ntwo'));
    const snapshot = emulator.snapshot();
    emulator.write(Buffer.from('\r\nthree'));
    expect(await screenOf(await snapshot, 20, 3)).toEqual(['one', 'two', '']);
    expect(await screenOf(await emulator.snapshot(), 20, 3)).toEqual(['one', 'two', 'three']);
    emulator.dispose();
  });

  it('decodes UTF-8 split across writes', async () => {
    const emulator = new Emulator(20, 2, 100);
    const bytes = Buffer.from('café ✓');
    emulator.write(bytes.subarray(0, 4));
    emulator.write(bytes.subarray(4, 8));
    emulator.write(bytes.subarray(8));
    expect((await screenOf(await emulator.snapshot(), 20, 2))[0]).toBe('café ✓');
    emulator.dispose();
  });

  it('resizes after the bytes written before the resize', async () => {
    const emulator = new Emulator(10, 2, 100);
    emulator.write(Buffer.from('abcdefghijkl'));
    emulator.resize(20, 2);
    emulator.write(Buffer.from('\r\nmnopqrstuvwxyz0123'));
    const lines = await screenOf(await emulator.snapshot(), 20, 2);
    // The first line wrapped at 10 columns, as it did when it was printed.
    expect(lines).toEqual(['kl', 'mnopqrstuvwxyz0123']);
    emulator.dispose();
  });

  it('parses output batch by batch while the parser keeps up, skipping nothing', async () => {
    const emulator = new Emulator(80, 5, 1000, {
      idleMs: 60_000,
      batchBytes: 500,
      batchIntervalMs: 10,
      tailBytes: 1000,
      floodQuietMs: 60_000,
    });
    for (const chunk of chunksOf(numberedLines(60), 128)) {
      emulator.write(chunk);
      // Slowly: each batch is parsed before the next fills, 20 ms or more later.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const lines = await linesOf(await emulator.snapshot(), 80, 5);
    expect(lines).toHaveLength(60);
    expect(lines.at(-1)).toMatch(/^line 059 x{40}$/);
    expect(emulator.skippedBytes).toBe(0);
    emulator.dispose();
  });

  it('keeps only the tail of a flood, from a line start, and parses it once quiet', async () => {
    const emulator = new Emulator(80, 5, 1000, {
      idleMs: 20,
      batchBytes: 1024,
      batchIntervalMs: 1000,
      tailBytes: 2048,
      floodQuietMs: 50,
    });
    // All at once: the second batch fills right after the first.
    for (const chunk of chunksOf(numberedLines(300), 128)) emulator.write(chunk);
    expect(emulator.skippedBytes).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    emulator.write(Buffer.from('after\r\n'));
    const lines = await linesOf(await emulator.snapshot(), 80, 5);
    expect(lines.at(-1)).toBe('after');
    // The first batch ended inside line 20; the cut fell inside another line,
    // and parsing resumed with the next one, on a line of its own.
    const numbered = lines.slice(0, -1);
    expect(numbered[20]).toBe('line');
    numbered.splice(20, 1);
    for (const line of numbered) expect(line).toMatch(/^line \d{3} x{40}$/);
    const numbers = numbered.map((line) => Number(line.slice(5, 8)));
    expect(numbers[0]).toBe(0);
    expect(numbers.at(-1)).toBe(299);
    const gap = numbers.findIndex((n, i) => i > 0 && n !== (numbers[i - 1] ?? 0) + 1);
    expect(gap).toBeGreaterThan(0);
    // After the gap, the tail: about tailBytes of consecutive lines to the end.
    const tail = numbers.slice(gap);
    expect(tail).toEqual(tail.map((_, i) => 299 - (tail.length - 1) + i));
    expect(tail.length * 51).toBeGreaterThanOrEqual(2048 - 128 - 51);
    expect(emulator.skippedBytes).toBe((300 - numbers.length) * 51 - 'line'.length);
    emulator.dispose();
  });
});
