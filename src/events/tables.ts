import type { Generated } from 'kysely';
import type { Actor, Changes } from './types.js';

export interface EventsTable {
  id: string;
  workspace_id: string;
  occurred_at: Date;
  type: string;
  resource_kind: string;
  resource_id: string;
  actor: Actor;
  changes: Changes;
  batch_id: string | null;
  cause: string;
  /** The writing transaction's id (xid8, read as text): the log's order is (xid, position). */
  xid: Generated<string>;
  position: Generated<number>;
}

declare module '../db/schema.js' {
  interface DB {
    events: EventsTable;
  }
}
