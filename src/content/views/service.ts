import { sql } from 'kysely';
import { jsonb } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { created, deleted, diff } from '../../events/changes.js';
import { recordEvent, recordEvents } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { loadRegistry } from '../fields/registry.js';
import { listStatuses } from '../statuses/service.js';
import type { DefinitionContext } from '../view-compiler/definition.js';
import { parseDefinition } from '../view-compiler/parse.js';
import type {
  CollectionView,
  CreateCollectionView,
  UpdateCollectionView,
  ViewDisplay,
} from './schemas.js';

interface ViewRow {
  id: string;
  collection_id: string;
  name: string;
  definition: Record<string, unknown>;
  display: ViewDisplay;
  position: number;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  'id',
  'collection_id',
  'name',
  'definition',
  'display',
  'position',
  'created_at',
  'updated_at',
] as const;

function toView(row: ViewRow): CollectionView {
  return {
    id: row.id,
    collectionId: row.collection_id,
    name: row.name,
    definition: row.definition,
    display: row.display,
    position: row.position,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function scopeOf(access: WorkspaceAccess, batchId?: string) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId: batchId ?? null,
  };
}

/** The registry and statuses a definition is checked against. */
export async function definitionContext(
  db: Database,
  workspaceId: string,
): Promise<DefinitionContext & { statusOrder: string[] }> {
  const [registry, statuses] = await Promise.all([
    loadRegistry(db, workspaceId),
    listStatuses(db, workspaceId),
  ]);
  const statusOrder = statuses.map((status) => status.id);
  return { fieldsById: registry.byId, statusIds: new Set(statusOrder), statusOrder };
}

/** Checks definition and display; returns the registry fields they name. */
async function checkView(
  db: Database,
  workspaceId: string,
  definition: Record<string, unknown>,
  display: ViewDisplay,
): Promise<string[]> {
  const context = await definitionContext(db, workspaceId);
  const parsed = parseDefinition(definition, context);
  const fieldIds = new Set(parsed.fieldIds);
  for (const [index, column] of (display.columns ?? []).entries()) {
    if ((column.fieldId === undefined) === (column.attribute === undefined)) {
      throw badRequest('invalid_display', 'A column names exactly one of fieldId and attribute', {
        path: `/display/columns/${index}`,
      });
    }
    if (column.fieldId !== undefined) {
      const id = column.fieldId.toLowerCase();
      if (!context.fieldsById.has(id)) {
        throw badRequest('unknown_field', 'A column names a field that is not in the registry', {
          path: `/display/columns/${index}/fieldId`,
        });
      }
      fieldIds.add(id);
    }
  }
  return [...fieldIds];
}

export async function listViews(
  db: Database,
  workspaceId: string,
  collectionId: string,
): Promise<CollectionView[]> {
  const rows = await db
    .selectFrom('collection_views')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('collection_id', '=', collectionId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(toView);
}

async function requireView(
  db: Database,
  workspaceId: string,
  collectionId: string,
  viewId: string,
  lock = false,
) {
  let query = db
    .selectFrom('collection_views')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('collection_id', '=', collectionId)
    .where('id', '=', viewId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound('View');
  return toView(row);
}

export function getView(db: Database, workspaceId: string, collectionId: string, viewId: string) {
  return requireView(db, workspaceId, collectionId, viewId);
}

/** Creates a view of a collection the caller has already checked belongs to the workspace. */
export async function createView(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: CreateCollectionView,
): Promise<CollectionView> {
  const display = input.display ?? {};
  const fieldIds = await checkView(db, access.workspaceId, input.definition, display);
  const last = await db
    .selectFrom('collection_views')
    .select(sql<number>`coalesce(max(position), -1)`.as('position'))
    .where('collection_id', '=', collectionId)
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('collection_views')
    .values({
      id: newId(),
      workspace_id: access.workspaceId,
      collection_id: collectionId,
      name: input.name.trim(),
      definition: jsonb(input.definition),
      display: jsonb(display),
      field_ids: fieldIds,
      position: Number(last.position) + 1,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  const view = toView(row);
  await recordEvent(db, scopeOf(access), {
    type: 'view.created',
    resource: { kind: 'view', id: view.id },
    changes: created({
      collectionId,
      name: view.name,
      definition: view.definition,
      display: view.display,
    }),
  });
  return view;
}

export async function updateView(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  viewId: string,
  input: UpdateCollectionView,
): Promise<CollectionView> {
  const before = await requireView(db, access.workspaceId, collectionId, viewId, true);
  const after = {
    ...before,
    name: input.name?.trim() ?? before.name,
    definition: input.definition ?? before.definition,
    display: input.display ?? before.display,
  };
  const changes = diff(before, after, ['name', 'definition', 'display']);
  if (Object.keys(changes).length === 0) return before;
  const fieldIds = await checkView(db, access.workspaceId, after.definition, after.display);
  const row = await db
    .updateTable('collection_views')
    .set({
      name: after.name,
      definition: jsonb(after.definition),
      display: jsonb(after.display),
      field_ids: fieldIds,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', viewId)
    .returning(columns)
    .executeTakeFirstOrThrow();
  await recordEvent(db, scopeOf(access), {
    type: 'view.updated',
    resource: { kind: 'view', id: viewId },
    changes,
  });
  return toView(row);
}

export async function deleteView(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  viewId: string,
): Promise<void> {
  const view = await requireView(db, access.workspaceId, collectionId, viewId, true);
  await db.deleteFrom('collection_views').where('id', '=', viewId).execute();
  await recordEvent(db, scopeOf(access), {
    type: 'view.deleted',
    resource: { kind: 'view', id: viewId },
    changes: deleted({ collectionId, name: view.name }),
  });
}

export async function deleteViewsOfCollection(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  batchId: string,
): Promise<void> {
  const rows = await db
    .deleteFrom('collection_views')
    .where('workspace_id', '=', access.workspaceId)
    .where('collection_id', '=', collectionId)
    .returning(['id', 'name'])
    .execute();
  await recordEvents(
    db,
    scopeOf(access, batchId),
    rows.map((row) => ({
      type: 'view.deleted',
      resource: { kind: 'view', id: row.id },
      changes: deleted({ collectionId, name: row.name }),
    })),
  );
}

/** Ids of the saved views whose definition or display names the field. */
/** A saved view that uses a field, named with its list (for the `field_in_use` refusal). */
export interface ViewUsingField {
  id: string;
  name: string;
  collectionId: string;
  collectionName: string;
}

export async function viewsUsingField(
  db: Database,
  workspaceId: string,
  fieldId: string,
): Promise<ViewUsingField[]> {
  return db
    .selectFrom('collection_views')
    .innerJoin('collections', 'collections.id', 'collection_views.collection_id')
    .select([
      'collection_views.id as id',
      'collection_views.name as name',
      'collections.id as collectionId',
      'collections.name as collectionName',
    ])
    .where('collection_views.workspace_id', '=', workspaceId)
    .where(sql<boolean>`collection_views.field_ids @> array[${fieldId}]::uuid[]`)
    .orderBy('collections.name')
    .orderBy('collection_views.name')
    .execute();
}
