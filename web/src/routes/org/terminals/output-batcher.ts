/** The most handed to the terminal in one write: xterm parses a write whole before it yields. */
const SLICE = 32 * 1024;

export interface OutputBatcher {
  push(bytes: Uint8Array): void;
  /** Drops what is waiting (the connection it came from is gone). */
  dispose(): void;
}

/**
 * Hands a terminal's output to `write`: a frame that comes while nothing is
 * waiting is written at once (a keystroke's echo shows without waiting for
 * the next animation frame); frames that come while one was just written
 * (thousands a second during a large `cat`, a few hundred bytes each) are
 * gathered and written once per animation frame, joined into slices of at
 * most 32 KB, so the terminal parses few large writes instead of many small
 * ones and the page keeps drawing. Bytes keep their order; a hidden page
 * gathers until it is shown.
 */
export function outputBatcher(write: (bytes: Uint8Array) => void): OutputBatcher {
  let waiting: Uint8Array[] = [];
  let size = 0;
  let frame = 0;
  const flush = () => {
    const chunks = waiting;
    let left = size;
    waiting = [];
    size = 0;
    // Nothing came since the last write: back to writing at once.
    frame = chunks.length === 0 ? 0 : requestAnimationFrame(flush);
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
      if (frame === 0) {
        // Idle: written now; what follows within this frame waits for it.
        frame = requestAnimationFrame(flush);
        if (bytes.length <= SLICE) {
          write(bytes);
          return;
        }
      }
      waiting.push(bytes);
      size += bytes.length;
    },
    dispose() {
      cancelAnimationFrame(frame);
      frame = 0;
      waiting = [];
      size = 0;
    },
  };
}
