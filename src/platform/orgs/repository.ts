import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OrgRole } from '../access/roles.js';
import type { OrganizationMembersTable, OrganizationsTable } from './tables.js';

/** An organization as stored: every column. */
export type OrganizationRow = Selectable<OrganizationsTable>;

const memberColumns = ['id', 'org_id', 'user_id', 'role', 'created_at'] as const;

/** A membership as read: its columns but `updated_at`. */
export type MemberRow = Pick<Selectable<OrganizationMembersTable>, (typeof memberColumns)[number]>;

export async function insertOrganization(
  db: Database,
  org: { id: string; name: string },
): Promise<OrganizationRow> {
  return db.insertInto('organizations').values(org).returningAll().executeTakeFirstOrThrow();
}

export async function findOrganization(
  db: Database,
  orgId: string,
): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
}

/** Locks the organization row: member changes are serialized, so an owner is always left. */
export async function lockOrganization(db: Database, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', orgId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The organizations a user belongs to, with the user's role in each, by name. */
export async function listOrganizationsOfUser(db: Database, userId: string) {
  return db
    .selectFrom('organizations')
    .innerJoin('organization_members', 'organization_members.org_id', 'organizations.id')
    .select([
      'organizations.id',
      'organizations.name',
      'organizations.created_at',
      'organizations.updated_at',
      'organization_members.role',
    ])
    .where('organization_members.user_id', '=', userId)
    .orderBy(sql`lower(organizations.name)`)
    .orderBy('organizations.id')
    .execute();
}

export async function insertMember(
  db: Database,
  member: { id: string; org_id: string; user_id: string; role: OrgRole },
): Promise<MemberRow> {
  return db
    .insertInto('organization_members')
    .values(member)
    .returning(memberColumns)
    .executeTakeFirstOrThrow();
}

export async function findMember(
  db: Database,
  orgId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('organization_members')
    .select(memberColumns)
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function findMemberById(db: Database, id: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('organization_members')
    .select(memberColumns)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Members in the order they joined. */
export async function listMembers(db: Database, orgId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('organization_members')
    .select(memberColumns)
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countOwners(db: Database, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<number>().as('owners'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.owners);
}

export async function updateMemberRole(
  db: Database,
  memberId: string,
  role: OrgRole,
): Promise<MemberRow> {
  return db
    .updateTable('organization_members')
    .set({ role, updated_at: sql<Date>`now()` })
    .where('id', '=', memberId)
    .returning(memberColumns)
    .executeTakeFirstOrThrow();
}

export async function deleteMember(db: Database, memberId: string): Promise<void> {
  await db.deleteFrom('organization_members').where('id', '=', memberId).execute();
}
