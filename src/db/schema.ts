import type { Kysely, Transaction } from 'kysely';

/**
 * The database's tables. Each module adds its own tables to this interface
 * from its `tables.ts` through declaration merging, so adding a module never
 * edits this file.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the modules' declaration merging
export interface DB {}

/** A database handle: the pool, or a transaction (a function taking one cannot tell which). */
export type Database = Kysely<DB>;
export type Tx = Transaction<DB>;
