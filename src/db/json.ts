import { type RawBuilder, sql } from 'kysely';

/** A value for a jsonb column: serialized here, so arrays stay JSON arrays on every driver. */
export function jsonb<T>(value: T): RawBuilder<T> {
  return sql<T>`cast(${JSON.stringify(value)} as jsonb)`;
}
