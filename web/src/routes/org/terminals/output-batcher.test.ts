import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { outputBatcher } from './output-batcher.js';

/** Animation frames run when the test says so. */
let frames: Array<() => void> = [];
beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    frames[id - 1] = () => {};
  });
});
afterEach(() => vi.unstubAllGlobals());

const nextFrame = () => {
  const due = frames;
  frames = [];
  for (const callback of due) callback();
};

const bytes = (length: number, from = 0) =>
  Uint8Array.from({ length }, (_, index) => (from + index) % 251);

describe('outputBatcher', () => {
  it('writes what comes while idle at once, and what follows within the frame joined, once', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    const echo = bytes(1);
    batcher.push(echo);
    expect(written).toEqual([echo]);
    batcher.push(bytes(300, 1));
    batcher.push(bytes(200, 301));
    expect(written).toHaveLength(1);
    nextFrame();
    expect(written).toEqual([echo, bytes(500, 1)]);
    // Nothing came since: idle again, no frame asked for, the next one written at once.
    nextFrame();
    expect(frames).toHaveLength(0);
    batcher.push(bytes(2));
    expect(written).toHaveLength(3);
  });

  it('ignores empty output', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    batcher.push(new Uint8Array(0));
    expect(written).toEqual([]);
    expect(frames).toHaveLength(0);
  });

  it('cuts a flood into writes of at most 32 KB, every byte once and in order', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    let sent = 0;
    for (const length of [900, 40_000, 3, 70_000, 1]) {
      batcher.push(bytes(length, sent));
      sent += length;
    }
    nextFrame();
    expect(written.map((chunk) => chunk.length)).toEqual([900, 32_768, 32_768, 32_768, 11_700]);
    const joined = new Uint8Array(sent);
    let at = 0;
    for (const chunk of written) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    expect(joined).toEqual(bytes(sent));
  });

  it('drops what waits when disposed', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    batcher.push(bytes(10));
    batcher.push(bytes(10, 10));
    batcher.dispose();
    nextFrame();
    expect(written).toEqual([bytes(10)]);
  });
});
