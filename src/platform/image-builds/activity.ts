import { EventEmitter } from 'node:events';

/** A build's record changed: the payload is its id (followers on other processes wake on it). */
export const IMAGE_BUILD_CHANNEL = 'sparrow_image_build';

/**
 * A signal when a build's record changed in this process: `changes` emits the
 * build id as the event name, after the new state is written, so a listener
 * reads it back from the database (followers poll for changes made by other
 * processes). Builds run as jobs (./jobs.ts).
 */
export class BuildActivity {
  readonly changes = new EventEmitter();

  constructor() {
    // One listener per open log socket.
    this.changes.setMaxListeners(0);
  }
}
