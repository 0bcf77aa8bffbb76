import type { Database } from '../../db/schema.js';
import type { Field, FieldConfig, FieldType } from './schemas.js';

interface FieldRow {
  id: string;
  key: string;
  type: string;
  name: string;
  config: FieldConfig;
  created_at: Date;
  updated_at: Date;
}

export const fieldColumns = [
  'id',
  'key',
  'type',
  'name',
  'config',
  'created_at',
  'updated_at',
] as const;

export function toField(row: FieldRow): Field {
  return {
    id: row.id,
    key: row.key,
    type: row.type as FieldType,
    name: row.name,
    config: row.config,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The workspace's fields, by key and by id: what item properties and views are checked against. */
export interface Registry {
  fields: Field[];
  byKey: Map<string, Field>;
  byId: Map<string, Field>;
}

export async function listFields(db: Database, workspaceId: string): Promise<Field[]> {
  const rows = await db
    .selectFrom('fields')
    .select(fieldColumns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toField);
}

export async function loadRegistry(db: Database, workspaceId: string): Promise<Registry> {
  const fields = await listFields(db, workspaceId);
  return {
    fields,
    byKey: new Map(fields.map((field) => [field.key, field])),
    byId: new Map(fields.map((field) => [field.id, field])),
  };
}

/** The ids among these that are fields of the workspace. */
export async function existingFieldIds(
  db: Database,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('fields')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}
