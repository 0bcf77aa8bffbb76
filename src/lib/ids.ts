import { v7 } from 'uuid';

/** A new time-ordered identifier (UUID version 7). */
export function newId(): string {
  return v7();
}
