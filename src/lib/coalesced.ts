/**
 * Wraps `read` so that it never runs twice at once: called while a run is
 * under way, it runs once more right after it. A change announced during a
 * read is not missed, and a burst of wake-ups costs one extra read. `read`
 * handles its own errors.
 */
export function coalesced(read: () => Promise<void>): () => Promise<void> {
  let reading = false;
  let again = false;
  return async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        await read();
      } while (again);
    } finally {
      reading = false;
    }
  };
}
