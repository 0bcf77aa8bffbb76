/** The most handed to the terminal in one write: xterm parses a write whole before it yields. */
const SLICE = 32 * 1024;

export interface OutputBatcher {
  push(bytes: Uint8Array): void;
  /** Drops what is waiting (the connection it came from is gone). */
  dispose(): void;
}

/**
 * Gathers a terminal's output frames (thousands a second during a large
 * `cat`, a few hundred bytes each) and hands them to `write` once per
 * animation frame, joined into slices of at most 32 KB, so the terminal
 * parses few large writes instead of many small ones and the page keeps
 * drawing. Bytes keep their order; a hidden page gathers until it is shown.
 */
export function outputBatcher(write: (bytes: Uint8Array) => void): OutputBatcher {
  let waiting: Uint8Array[] = [];
  let size = 0;
  let frame = 0;
  const flush = () => {
    frame = 0;
    const chunks = waiting;
    let left = size;
    waiting = [];
    size = 0;
    const only = chunks[0];
    if (chunks.length === 1 && only !== undefined && only.length <= SLICE) {
      write(only);
      return;
    }
    let slice = new Uint8Array(Math.min(left, SLICE));
    let filled = 0;
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length; ) {
        const taken = Math.min(chunk.length - at, slice.length - filled);
        slice.set(chunk.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === slice.length) {
          write(slice);
          left -= slice.length;
          slice = new Uint8Array(Math.min(left, SLICE));
          filled = 0;
        }
      }
    }
  };
  return {
    push(bytes) {
      if (bytes.length === 0) return;
      waiting.push(bytes);
      size += bytes.length;
      if (frame === 0) frame = requestAnimationFrame(flush);
    },
    dispose() {
      cancelAnimationFrame(frame);
      frame = 0;
      waiting = [];
      size = 0;
    },
  };
}
