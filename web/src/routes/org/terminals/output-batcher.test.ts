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
  it('hands a frame its output once, in order, joined', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    batcher.push(bytes(300, 0));
    batcher.push(bytes(200, 300));
    expect(written).toEqual([]);
    expect(frames).toHaveLength(1);
    nextFrame();
    expect(written).toEqual([bytes(500)]);
  });

  it('passes one small chunk as it is, and asks for no frame when nothing waits', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    const chunk = bytes(10);
    batcher.push(chunk);
    batcher.push(new Uint8Array(0));
    nextFrame();
    expect(written[0]).toBe(chunk);
    nextFrame();
    expect(written).toHaveLength(1);
    expect(frames).toHaveLength(0);
  });

  it('cuts a large frame into writes of at most 32 KB, every byte once and in order', () => {
    const written: Uint8Array[] = [];
    const batcher = outputBatcher((chunk) => written.push(chunk));
    let sent = 0;
    for (const length of [900, 40_000, 3, 70_000, 1]) {
      batcher.push(bytes(length, sent));
      sent += length;
    }
    nextFrame();
    expect(written.map((chunk) => chunk.length)).toEqual([32_768, 32_768, 32_768, 12_600]);
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
    batcher.dispose();
    nextFrame();
    expect(written).toEqual([]);
  });
});
