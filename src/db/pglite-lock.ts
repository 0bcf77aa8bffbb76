import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, stat, unlink } from 'node:fs/promises';

/*
 * One process at a time on an embedded database: PGlite keeps its own
 * copy of the data in memory and writes it back, so a second process on the
 * same folder reads stale data and its writes are lost. The lock is a file
 * created with O_EXCL holding the owner's PID and start time; it is held for
 * the process's life. A lock whose owner is gone (kill -9, power loss) is
 * taken over: the owner is alive only when a process with that PID exists
 * and, where /proc tells, started at the recorded time (PIDs are reused, and
 * in a container the restarted server often gets the dead one's PID).
 */

/** Another live process holds the embedded database. */
export class DatabaseLockedError extends Error {
  constructor(
    message: string,
    readonly holderPid: number,
  ) {
    super(message);
    this.name = 'DatabaseLockedError';
  }
}

interface Owner {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), or null where unknown. */
  started: string | null;
}

/** A takeover marker older than this was left by a process that died during its takeover. */
const TAKEOVER_STALE_MS = 10_000;

function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function parseOwner(text: string): Owner | null {
  const [pidText, started] = text.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, started: started === undefined || started === '' ? null : started };
}

function alive(owner: Owner): boolean {
  // This process did not write the lock (it is taking it now): a PID reused after a crash.
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
  const now = startTime(owner.pid);
  return owner.started === null || now === null || now === owner.started;
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  try {
    const file = await open(path, 'wx');
    try {
      await file.writeFile(content);
    } finally {
      await file.close();
    }
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Removes a dead owner's lock. Under a second O_EXCL marker, and only when
 * the lock still holds what was judged dead: two processes taking over at
 * once must not remove the lock the first of them has just created.
 */
async function removeStale(path: string, judged: string): Promise<void> {
  const marker = `${path}.takeover`;
  if (!(await createExclusive(marker, String(process.pid)))) {
    const since = await stat(marker).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > TAKEOVER_STALE_MS) await unlink(marker).catch(() => {});
    return;
  }
  try {
    if ((await readOrNull(path)) === judged) await unlink(path).catch(() => {});
  } finally {
    await unlink(marker).catch(() => {});
  }
}

export interface HeldLock {
  /** Gives the lock up (the database is closed). */
  release(): Promise<void>;
}

/** Takes the lock file at `path`, or throws {@link DatabaseLockedError} naming the live holder. */
export async function lockDatabase(path: string, what: string): Promise<HeldLock> {
  const content = `${process.pid} ${startTime(process.pid) ?? ''}\n`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createExclusive(path, content)) return held(path, content);
    const existing = await readOrNull(path);
    if (existing === null) continue;
    const owner = parseOwner(existing);
    if (owner !== null && alive(owner)) {
      throw new DatabaseLockedError(
        `The embedded database in ${what} is in use by process ${owner.pid} (lock file ${path}). ` +
          'Only one process may open it at a time: stop that process first (for `sparrow user ' +
          'create`, stop the server, run the command, start the server again), or use ' +
          'PostgreSQL (DATABASE_URL) to run several processes on one database.',
        owner.pid,
      );
    }
    // Empty or unreadable (its owner died while writing it), or its owner is gone.
    await removeStale(path, existing);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`could not take the lock ${path}`);
}

function held(path: string, content: string): HeldLock {
  const removeNow = () => {
    try {
      if (readFileSync(path, 'utf8') === content) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  // An ordinary exit (process.exit included) gives the lock up; a kill -9 leaves it, to be taken over.
  process.once('exit', removeNow);
  return {
    release: async () => {
      process.off('exit', removeNow);
      removeNow();
    },
  };
}
