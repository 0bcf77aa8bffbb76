import { type Selectable, sql } from 'kysely';
import type { UsersTable } from '../../accounts/tables.js';
import type { Database } from '../../db/schema.js';
import type { WorkspaceMembersTable, WorkspacesTable } from './tables.js';

const workspaceFields = ['id', 'name', 'slug', 'cover_layout', 'created_at', 'updated_at'] as const;
const workspaceColumns = workspaceFields.map((field) => `workspaces.${field}` as const);

/** A workspace as read: every column but the item counter. */
export type WorkspaceRow = Pick<Selectable<WorkspacesTable>, (typeof workspaceFields)[number]>;

export async function insertWorkspace(
  db: Database,
  values: { id: string; name: string; slug: string; coverLayout: string },
): Promise<WorkspaceRow> {
  return db
    .insertInto('workspaces')
    .values({
      id: values.id,
      name: values.name,
      slug: values.slug,
      cover_layout: values.coverLayout,
    })
    .returning(workspaceFields)
    .executeTakeFirstOrThrow();
}

export async function findWorkspace(db: Database, id: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .select(workspaceColumns)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Locks the workspace row for the rest of the transaction. */
export async function findWorkspaceForUpdate(
  db: Database,
  id: string,
): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .select(workspaceColumns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function listWorkspacesOfUser(db: Database, userId: string) {
  return db
    .selectFrom('workspaces')
    .innerJoin('workspace_members', 'workspace_members.workspace_id', 'workspaces.id')
    .select([...workspaceColumns, 'workspace_members.role'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspaces.created_at')
    .orderBy('workspaces.id')
    .execute();
}

export async function updateWorkspace(
  db: Database,
  id: string,
  values: { name?: string; coverLayout?: string },
): Promise<WorkspaceRow> {
  return db
    .updateTable('workspaces')
    .set({
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.coverLayout === undefined ? {} : { cover_layout: values.coverLayout }),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .returning(workspaceFields)
    .executeTakeFirstOrThrow();
}

export async function deleteWorkspace(db: Database, id: string): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', id).execute();
}

const memberColumns = [
  'workspace_members.user_id',
  'users.email',
  'users.name',
  'workspace_members.role',
  'workspace_members.avatar_file_id',
  'workspace_members.created_at',
] as const;

/** A membership with the member's e-mail address and name. */
export type MemberRow = Pick<
  Selectable<WorkspaceMembersTable>,
  'user_id' | 'role' | 'avatar_file_id' | 'created_at'
> &
  Pick<Selectable<UsersTable>, 'email' | 'name'>;

export async function findMemberRole(
  db: Database,
  workspaceId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export async function listMembers(db: Database, workspaceId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('workspace_members')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select(memberColumns)
    .where('workspace_members.workspace_id', '=', workspaceId)
    .orderBy('workspace_members.created_at')
    .orderBy('workspace_members.user_id')
    .execute();
}

export async function findMember(
  db: Database,
  workspaceId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('workspace_members')
    .innerJoin('users', 'users.id', 'workspace_members.user_id')
    .select(memberColumns)
    .where('workspace_members.workspace_id', '=', workspaceId)
    .where('workspace_members.user_id', '=', userId)
    .executeTakeFirst();
}

/** The members among these user ids (for `person` properties). */
export async function filterMembers(
  db: Database,
  workspaceId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', [...userIds])
    .execute();
  return new Set(rows.map((row) => row.user_id));
}

export async function upsertMember(
  db: Database,
  values: { workspaceId: string; userId: string; role: string },
): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: values.workspaceId, user_id: values.userId, role: values.role })
    .onConflict((conflict) =>
      conflict
        .columns(['workspace_id', 'user_id'])
        .doUpdateSet({ role: values.role, updated_at: sql<Date>`now()` }),
    )
    .execute();
}

export async function deleteMember(
  db: Database,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

/** Owners of the workspace, locked so that two demotions cannot both pass the last-owner check. */
export async function lockOwners(db: Database, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  return rows.map((row) => row.user_id);
}

export async function setMemberAvatar(
  db: Database,
  workspaceId: string,
  userId: string,
  fileId: string | null,
): Promise<void> {
  await db
    .updateTable('workspace_members')
    .set({ avatar_file_id: fileId, updated_at: sql<Date>`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}
