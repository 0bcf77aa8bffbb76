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

const noFlow = { pause() {}, resume() {} };

describe('the session emulator', () => {
  it('snapshots every byte written before the call, and none after', async () => {
    const emulator = new Emulator(20, 3, 100, noFlow);
    emulator.write(Buffer.from('one\r\ntwo'));
    const snapshot = emulator.snapshot();
    emulator.write(Buffer.from('\r\nthree'));
    expect(await screenOf(await snapshot, 20, 3)).toEqual(['one', 'two', '']);
    expect(await screenOf(await emulator.snapshot(), 20, 3)).toEqual(['one', 'two', 'three']);
    emulator.dispose();
  });

  it('decodes UTF-8 split across writes', async () => {
    const emulator = new Emulator(20, 2, 100, noFlow);
    const bytes = Buffer.from('café ✓');
    emulator.write(bytes.subarray(0, 4));
    emulator.write(bytes.subarray(4, 8));
    emulator.write(bytes.subarray(8));
    expect((await screenOf(await emulator.snapshot(), 20, 2))[0]).toBe('café ✓');
    emulator.dispose();
  });

  it('resizes after the bytes written before the resize', async () => {
    const emulator = new Emulator(10, 2, 100, noFlow);
    emulator.write(Buffer.from('abcdefghijkl'));
    emulator.resize(20, 2);
    emulator.write(Buffer.from('\r\nmnopqrstuvwxyz0123'));
    const lines = await screenOf(await emulator.snapshot(), 20, 2);
    // The first line wrapped at 10 columns, as it did when it was printed.
    expect(lines).toEqual(['kl', 'mnopqrstuvwxyz0123']);
    emulator.dispose();
  });

  it('parses a long flood while it goes on, and pauses the program when far behind', async () => {
    const events: string[] = [];
    const flow = { pause: () => events.push('pause'), resume: () => events.push('resume') };
    const emulator = new Emulator(80, 24, 100, flow, {
      idleMs: 10_000,
      backlogBytes: 1000,
      highWater: 1500,
      lowWater: 100,
    });
    const line = Buffer.from(`${'x'.repeat(98)}\r\n`);
    for (let i = 0; i < 30; i++) emulator.write(line);
    expect(events[0]).toBe('pause');
    const lines = await screenOf(await emulator.snapshot(), 80, 24);
    expect(lines.filter((l) => l.startsWith('x'))).toHaveLength(23);
    expect(events.at(-1)).toBe('resume');
    emulator.dispose();
  });
});
