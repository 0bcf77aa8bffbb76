import type WebSocket from 'ws';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';

/** The close code of a follower refused after the upgrade (two opened at the same instant). */
export const TOO_MANY_FOLLOWERS_CLOSE = 4429;

/** The refusal, as the log sockets' descriptions state it. */
export const FOLLOWERS =
  'A user (all their sessions together) or an API key holds at most `LOG_FOLLOWERS_PER_CALLER` ' +
  '(default 32) job-run and image-build log sockets open at once on one server process; one more ' +
  'is refused before the upgrade with 429 `too_many_followers`, or, when two open at the same ' +
  `instant, closed right after it with code ${TOO_MANY_FOLLOWERS_CLOSE} and reason \`too_many_followers\`.`;

/**
 * Concurrent log followers (job-run and image-build log sockets) per
 * caller in one server process: each holds a socket and a place in a
 * shared reader, so one caller cannot open them without bound.
 */
export class FollowerQuota {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** How many the caller holds now. */
  held(principal: Principal): number {
    return this.counts.get(callerKey(principal)) ?? 0;
  }

  /** True when the caller may open one more. */
  allows(principal: Principal): boolean {
    return this.held(principal) < this.limit;
  }

  /** Takes a place for the caller; the returned function gives it back (once). Null: none left. */
  take(principal: Principal): (() => void) | null {
    const key = callerKey(principal);
    const held = this.counts.get(key) ?? 0;
    if (held >= this.limit) return null;
    this.counts.set(key, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }

  /**
   * Takes a place for the caller until the socket closes; false (the socket
   * closed with TOO_MANY_FOLLOWERS_CLOSE) when none is left.
   */
  hold(socket: WebSocket, principal: Principal): boolean {
    // Closed before its handler ran: no `close` event would give a place back.
    if (socket.readyState !== socket.OPEN) return false;
    const release = this.take(principal);
    if (release === null) {
      socket.close(TOO_MANY_FOLLOWERS_CLOSE, 'too_many_followers');
      return false;
    }
    socket.once('close', release);
    return true;
  }

  /** Callers holding at least one follower (an empty quota keeps nothing). */
  get callers(): number {
    return this.counts.size;
  }
}

/** A key counts for itself, a person for all their sessions. */
function callerKey(principal: Principal): string {
  if (principal.kind === 'org_key') return `key:${principal.keyId}`;
  if ('userId' in principal && typeof principal.userId === 'string')
    return `user:${principal.userId}`;
  return `${principal.kind}:${principal.label}`;
}

/** Refuses (429 `too_many_followers`) a caller who holds all their places: checked before the upgrade. */
export function tooManyFollowers(quota: FollowerQuota, principal: Principal): void {
  if (quota.allows(principal)) return;
  throw new AppError(
    'too_many_followers',
    `You already follow ${quota.limit} logs at once; close one before opening another`,
    { limit: quota.limit },
  );
}
