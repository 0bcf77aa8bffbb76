import { sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { jsonb } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { created, deleted, diff } from '../../events/changes.js';
import { recordEvent } from '../../events/writer.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { removeFieldFromCollections } from '../collections/service.js';
import { removeOptionValues, removePropertyEverywhere } from '../items/cleanup.js';
import { requestPropertyIndexes } from '../queries/property-indexes.js';
import { viewsUsingField } from '../views/service.js';
import { hasOptions, normalizeConfig, sameLabel } from './config.js';
import { fieldColumns, toField } from './registry.js';
import {
  type CreateField,
  type Field,
  MAX_OPTIONS,
  type SelectOption,
  type UpdateField,
  type UpsertFieldOption,
} from './schemas.js';

function scopeOf(access: WorkspaceAccess, batchId?: string) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId: batchId ?? null,
  };
}

async function requireFieldForUpdate(
  db: Database,
  workspaceId: string,
  fieldId: string,
): Promise<Field> {
  const row = await db
    .selectFrom('fields')
    .select(fieldColumns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', fieldId)
    .forUpdate()
    .executeTakeFirst();
  if (row === undefined) throw notFound('Field');
  return toField(row);
}

export async function getField(db: Database, workspaceId: string, fieldId: string): Promise<Field> {
  const row = await db
    .selectFrom('fields')
    .select(fieldColumns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', fieldId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Field');
  return toField(row);
}

export async function createField(
  db: Database,
  access: WorkspaceAccess,
  input: CreateField,
): Promise<Field> {
  const config = normalizeConfig(input.type, input.config);
  let row: Parameters<typeof toField>[0];
  try {
    row = await db
      .insertInto('fields')
      .values({
        id: newId(),
        workspace_id: access.workspaceId,
        key: input.key,
        type: input.type,
        name: input.name.trim(),
        config: jsonb(config),
      })
      .returning(fieldColumns)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error, 'fields_key_key')) {
      throw badRequest('key_taken', 'Another field of this workspace has this key', {
        key: input.key,
      });
    }
    throw error;
  }
  const field = toField(row);
  await requestPropertyIndexes(db, field.key, field.type);
  await recordEvent(db, scopeOf(access), {
    type: 'field.created',
    resource: { kind: 'field', id: field.id },
    changes: created({ key: field.key, type: field.type, name: field.name, config: field.config }),
  });
  return field;
}

async function writeField(
  db: Database,
  access: WorkspaceAccess,
  before: Field,
  next: { name: string; config: Field['config'] },
  batchId?: string,
): Promise<Field> {
  const changes = diff(before, { ...before, ...next }, ['name', 'config']);
  if (Object.keys(changes).length === 0) return before;
  const row = await db
    .updateTable('fields')
    .set({
      name: next.name,
      config: jsonb(next.config),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', before.id)
    .returning(fieldColumns)
    .executeTakeFirstOrThrow();
  await recordEvent(db, scopeOf(access, batchId), {
    type: 'field.updated',
    resource: { kind: 'field', id: before.id },
    changes,
  });
  return toField(row);
}

/** Renames or reconfigures; options dropped from a select field are removed from items too. */
export async function updateField(
  db: Database,
  access: WorkspaceAccess,
  fieldId: string,
  input: UpdateField,
): Promise<Field> {
  const before = await requireFieldForUpdate(db, access.workspaceId, fieldId);
  const previousOptions = before.config.options ?? [];
  const config =
    input.config === undefined
      ? before.config
      : normalizeConfig(before.type, input.config, previousOptions);
  const kept = new Set((config.options ?? []).map((option) => option.id));
  const removed = previousOptions
    .filter((option) => !kept.has(option.id))
    .map((option) => option.id);
  const batchId = removed.length > 0 ? newId() : undefined;
  const field = await writeField(
    db,
    access,
    before,
    { name: input.name?.trim() ?? before.name, config },
    batchId,
  );
  if (batchId !== undefined) await removeOptionValues(db, access, field, removed, batchId);
  return field;
}

/**
 * Adds an option at the end or recolors an existing one, under the field's
 * row lock, so concurrent additions all land. An option named by its label
 * (case-insensitive) keeps its label and takes the color; named by its id it
 * can be renamed too. Nothing changes, nothing is logged.
 */
export async function upsertOption(
  db: Database,
  access: WorkspaceAccess,
  fieldId: string,
  input: UpsertFieldOption,
): Promise<Field> {
  const before = await requireFieldForUpdate(db, access.workspaceId, fieldId);
  if (!hasOptions(before.type)) {
    throw badRequest('field_has_no_options', 'Only select and multi_select fields have options', {
      type: before.type,
    });
  }
  const options = before.config.options ?? [];
  const color = input.color.toLowerCase();
  const index = options.findIndex((option) =>
    input.id !== undefined ? option.id === input.id : sameLabel(option.label, input.label),
  );
  const existing = options[index];
  if (input.id !== undefined && existing === undefined) throw notFound('Option', { id: input.id });
  let next: SelectOption[];
  if (existing !== undefined && input.id === undefined) {
    // Found by its label: the option is already declared. Only its color can
    // change; its label stays as stored, whatever the case sent.
    if (existing.color === color) return before;
    next = options.map((option, at) => (at === index ? { ...option, color } : option));
  } else if (existing !== undefined) {
    if (existing.color === color && existing.label === input.label.trim()) return before;
    const clash = options.some(
      (option, at) => at !== index && sameLabel(option.label, input.label),
    );
    if (clash)
      throw badRequest('duplicate_option', 'Another option has this label', { label: input.label });
    next = options.map((option, at) =>
      at === index ? { ...option, label: input.label.trim(), color } : option,
    );
  } else {
    if (options.length >= MAX_OPTIONS) {
      throw badRequest('too_many_options', `A field has at most ${MAX_OPTIONS} options`, {
        max: MAX_OPTIONS,
      });
    }
    next = [...options, { id: newId(), label: input.label.trim(), color }];
  }
  return writeField(db, access, before, {
    name: before.name,
    config: { ...before.config, options: next },
  });
}

/**
 * Deletes a field that no saved view uses: its key is removed from every
 * item and its id from every collection, all logged under one batch id.
 */
export async function deleteField(
  db: Database,
  access: WorkspaceAccess,
  fieldId: string,
): Promise<void> {
  const field = await requireFieldForUpdate(db, access.workspaceId, fieldId);
  const views = await viewsUsingField(db, access.workspaceId, fieldId);
  if (views.length > 0) {
    throw conflict('field_in_use', 'Saved views use this field; change or delete them first', {
      viewIds: views.map((view) => view.id),
      views,
    });
  }
  const batchId = newId();
  await removePropertyEverywhere(db, access, field.key, batchId);
  await removeFieldFromCollections(db, access, fieldId, batchId);
  await db.deleteFrom('fields').where('id', '=', fieldId).execute();
  await recordEvent(db, scopeOf(access, batchId), {
    type: 'field.deleted',
    resource: { kind: 'field', id: fieldId },
    changes: deleted({ key: field.key, type: field.type, name: field.name }),
  });
}
