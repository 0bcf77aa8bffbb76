import { sql } from 'kysely';
import { isPgError, isUniqueViolation, PG_FOREIGN_KEY_VIOLATION } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { created, deleted, diff } from '../../events/changes.js';
import { recordEvent, recordEvents } from '../../events/writer.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import type {
  CreateStatus,
  ReorderStatuses,
  Status,
  StatusCategory,
  UpdateStatus,
} from './schemas.js';

interface StatusRow {
  id: string;
  name: string;
  color: string;
  category: string;
  position: number;
  created_at: Date;
  updated_at: Date;
}

const columns = [
  'id',
  'name',
  'color',
  'category',
  'position',
  'created_at',
  'updated_at',
] as const;

function toStatus(row: StatusRow): Status {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    category: row.category as StatusCategory,
    position: row.position,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The fields of a status an event reports. */
function eventValues(status: Status) {
  return {
    name: status.name,
    color: status.color,
    category: status.category,
    position: status.position,
  };
}

export const DEFAULT_STATUSES: readonly CreateStatus[] = [
  { name: 'Todo', color: '#94a3b8', category: 'unstarted' },
  { name: 'In Progress', color: '#f59e0b', category: 'started' },
  { name: 'Done', color: '#22c55e', category: 'completed' },
];

function nameTaken(): Error {
  return conflict('status_name_taken', 'A status with this name already exists in the workspace');
}

export async function listStatuses(db: Database, workspaceId: string): Promise<Status[]> {
  const rows = await db
    .selectFrom('statuses')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(toStatus);
}

/** The status, if it belongs to the workspace. */
export async function findStatus(
  db: Database,
  workspaceId: string,
  statusId: string,
): Promise<Status | undefined> {
  const row = await db
    .selectFrom('statuses')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId)
    .executeTakeFirst();
  return row && toStatus(row);
}

/** The first status in order: the one a new item gets when none is named. */
export async function defaultStatusId(db: Database, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createStatuses(
  db: Database,
  access: WorkspaceAccess,
  inputs: readonly CreateStatus[],
): Promise<Status[]> {
  const last = await db
    .selectFrom('statuses')
    .select(sql<number>`coalesce(max(position), -1)`.as('position'))
    .where('workspace_id', '=', access.workspaceId)
    .executeTakeFirstOrThrow();
  const values = inputs.map((input, index) => ({
    id: newId(),
    workspace_id: access.workspaceId,
    name: input.name.trim(),
    color: input.color.toLowerCase(),
    category: input.category,
    position: Number(last.position) + 1 + index,
  }));
  try {
    const rows = await db.insertInto('statuses').values(values).returning(columns).execute();
    const statuses = rows.map(toStatus);
    await recordEvents(
      db,
      { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks },
      statuses.map((status) => ({
        type: 'status.created',
        resource: { kind: 'status', id: status.id },
        changes: created(eventValues(status)),
      })),
    );
    return statuses;
  } catch (error) {
    if (isUniqueViolation(error, 'statuses_name_key')) throw nameTaken();
    throw error;
  }
}

export async function createStatus(
  db: Database,
  access: WorkspaceAccess,
  input: CreateStatus,
): Promise<Status> {
  const [status] = await createStatuses(db, access, [input]);
  if (status === undefined) throw new Error('status not created');
  return status;
}

async function requireStatusForUpdate(
  db: Database,
  workspaceId: string,
  statusId: string,
): Promise<Status> {
  const row = await db
    .selectFrom('statuses')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId)
    .forUpdate()
    .executeTakeFirst();
  if (row === undefined) throw notFound('Status');
  return toStatus(row);
}

export async function updateStatus(
  db: Database,
  access: WorkspaceAccess,
  statusId: string,
  input: UpdateStatus,
): Promise<Status> {
  const before = await requireStatusForUpdate(db, access.workspaceId, statusId);
  const next = {
    name: input.name?.trim() ?? before.name,
    color: input.color?.toLowerCase() ?? before.color,
    category: input.category ?? before.category,
  };
  const changes = diff(before, { ...before, ...next }, ['name', 'color', 'category']);
  if (Object.keys(changes).length === 0) return before;
  try {
    const row = await db
      .updateTable('statuses')
      .set({ ...next, updated_at: sql<Date>`now()` })
      .where('id', '=', statusId)
      .returning(columns)
      .executeTakeFirstOrThrow();
    await recordEvent(
      db,
      { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks },
      {
        type: 'status.updated',
        resource: { kind: 'status', id: statusId },
        changes,
      },
    );
    return toStatus(row);
  } catch (error) {
    if (isUniqueViolation(error, 'statuses_name_key')) throw nameTaken();
    throw error;
  }
}

export async function deleteStatus(
  db: Database,
  access: WorkspaceAccess,
  statusId: string,
): Promise<void> {
  const all = await db
    .selectFrom('statuses')
    .select('id')
    .where('workspace_id', '=', access.workspaceId)
    .forUpdate()
    .execute();
  const status = await requireStatusForUpdate(db, access.workspaceId, statusId);
  if (all.length <= 1) throw conflict('last_status', 'A workspace keeps at least one status');
  try {
    await db.deleteFrom('statuses').where('id', '=', statusId).execute();
  } catch (error) {
    // Items reference their status with ON DELETE RESTRICT.
    if (isPgError(error) && error.code === PG_FOREIGN_KEY_VIOLATION) {
      throw conflict(
        'status_in_use',
        'Items still use this status; move them to another status first',
      );
    }
    throw error;
  }
  await recordEvent(
    db,
    { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks },
    {
      type: 'status.deleted',
      resource: { kind: 'status', id: statusId },
      changes: deleted(eventValues(status)),
    },
  );
}

export async function reorderStatuses(
  db: Database,
  access: WorkspaceAccess,
  input: ReorderStatuses,
): Promise<Status[]> {
  const current = await db
    .selectFrom('statuses')
    .select(columns)
    .where('workspace_id', '=', access.workspaceId)
    .forUpdate()
    .execute();
  const known = new Set(current.map((row) => row.id));
  const cited = new Set(input.statusIds);
  if (
    cited.size !== input.statusIds.length ||
    cited.size !== known.size ||
    [...cited].some((id) => !known.has(id))
  ) {
    throw badRequest(
      'invalid_order',
      'statusIds must list every status of the workspace exactly once',
      {
        expected: known.size,
        received: input.statusIds.length,
      },
    );
  }
  const moved = current.filter((row) => row.position !== input.statusIds.indexOf(row.id));
  for (const row of moved) {
    await db
      .updateTable('statuses')
      .set({ position: input.statusIds.indexOf(row.id), updated_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
  }
  await recordEvents(
    db,
    { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks },
    moved.map((row) => ({
      type: 'status.updated',
      resource: { kind: 'status', id: row.id },
      changes: { position: { before: row.position, after: input.statusIds.indexOf(row.id) } },
    })),
  );
  return listStatuses(db, access.workspaceId);
}
