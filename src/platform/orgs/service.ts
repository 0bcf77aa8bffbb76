import * as accounts from '../../accounts/service.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { newId } from '../../lib/ids.js';
import type { OrgAccess } from '../access/org-access.js';
import type { OrgRole } from '../access/roles.js';
import { requireMemberAddition, requireMemberRemoval, requireRoleChange } from './policy.js';
import type { MemberRow, OrganizationRow } from './repository.js';
import * as repository from './repository.js';
import type { AddMemberBody, CreateOrganizationBody, Member, Organization } from './schemas.js';

function toOrganization(row: OrganizationRow, role: OrgRole): Organization {
  return {
    id: row.id,
    name: row.name,
    role,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const organizationNotFound = () => notFound('Organization');

/**
 * Who the caller is in this organization. A person must be a member; a key
 * works only in its own organization. Anything else is 404, so that an
 * organization one cannot see looks the same as one that does not exist.
 */
export async function orgAccess(
  db: Database,
  principal: Principal,
  orgId: string,
): Promise<OrgAccess> {
  if (principal.kind === 'org_key') {
    if (principal.orgId !== orgId) throw organizationNotFound();
    return {
      orgId,
      role: principal.role,
      userId: principal.userId,
      keyId: principal.keyId,
      scopes: principal.scopes,
    };
  }
  if (principal.kind !== 'user') {
    throw forbidden('key_not_allowed', 'This credential cannot act in organizations');
  }
  const member = await repository.findMember(db, orgId, principal.userId);
  if (member === undefined) throw organizationNotFound();
  return { orgId, role: member.role, userId: principal.userId, keyId: null, scopes: null };
}

export interface Membership {
  id: string;
  orgId: string;
  userId: string;
  role: OrgRole;
}

function toMembership(row: MemberRow | undefined): Membership | undefined {
  return row === undefined
    ? undefined
    : { id: row.id, orgId: row.org_id, userId: row.user_id, role: row.role };
}

/** A membership by its id (a personal API key is tied to its creator's membership). */
export async function getMembershipById(
  db: Database,
  memberId: string,
): Promise<Membership | undefined> {
  return toMembership(await repository.findMemberById(db, memberId));
}

/** The membership of a user in an organization, if any. */
export async function getMembership(
  db: Database,
  orgId: string,
  userId: string,
): Promise<Membership | undefined> {
  return toMembership(await repository.findMember(db, orgId, userId));
}

/** Which of these users are members of the organization. */
export async function membersAmong(
  db: Database,
  orgId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await repository.listMembers(db, orgId);
  const wanted = new Set(userIds);
  return new Set(rows.map((row) => row.user_id).filter((userId) => wanted.has(userId)));
}

/** The caller's organizations: a person's memberships, or a key's one organization. */
export async function listOrganizations(
  db: Database,
  principal: Principal,
): Promise<Organization[]> {
  if (principal.kind === 'org_key') {
    const org = await repository.findOrganization(db, principal.orgId);
    return org === undefined ? [] : [toOrganization(org, principal.role)];
  }
  if (principal.kind !== 'user') return [];
  const rows = await repository.listOrganizationsOfUser(db, principal.userId);
  return rows.map((row) => toOrganization(row, row.role));
}

export async function createOrganization(
  db: Database,
  userId: string,
  input: CreateOrganizationBody,
): Promise<Organization> {
  const org = await repository.insertOrganization(db, { id: newId(), name: input.name.trim() });
  await repository.insertMember(db, {
    id: newId(),
    org_id: org.id,
    user_id: userId,
    role: 'owner',
  });
  return toOrganization(org, 'owner');
}

export async function getOrganization(db: Database, access: OrgAccess): Promise<Organization> {
  const org = await repository.findOrganization(db, access.orgId);
  if (org === undefined) throw organizationNotFound();
  return toOrganization(org, access.role);
}

async function toMembers(db: Database, rows: readonly MemberRow[]): Promise<Member[]> {
  const users = await accounts.getUsers(
    db,
    rows.map((row) => row.user_id),
  );
  return rows.flatMap((row) => {
    const user = users.get(row.user_id);
    if (user === undefined) return [];
    return [
      {
        userId: row.user_id,
        email: user.email,
        name: user.name,
        role: row.role,
        joinedAt: row.created_at.toISOString(),
      },
    ];
  });
}

async function toMember(db: Database, row: MemberRow): Promise<Member> {
  const [member] = await toMembers(db, [row]);
  if (member === undefined) throw notFound('Member');
  return member;
}

export async function listMembers(db: Database, access: OrgAccess): Promise<Member[]> {
  return toMembers(db, await repository.listMembers(db, access.orgId));
}

/** The member to change, with the organization locked so the owner count cannot race. */
async function lockedMember(db: Database, access: OrgAccess, userId: string): Promise<MemberRow> {
  if (!(await repository.lockOrganization(db, access.orgId))) throw organizationNotFound();
  const member = await repository.findMember(db, access.orgId, userId);
  if (member === undefined) throw notFound('Member');
  return member;
}

async function keepAnOwner(db: Database, member: MemberRow): Promise<void> {
  if (member.role !== 'owner') return;
  if ((await repository.countOwners(db, member.org_id)) <= 1) {
    throw conflict(
      'last_owner',
      'An organization keeps at least one owner: make someone else owner first',
    );
  }
}

/** Adds an existing account. Granting `owner` needs an owner; other roles need owner or admin. */
export async function addMember(
  db: Database,
  access: OrgAccess,
  input: AddMemberBody,
): Promise<Member> {
  requireMemberAddition(access, input.role);
  const user = await accounts.findUserByEmail(db, input.email.trim());
  if (user === undefined) {
    throw new AppError('account_not_found', 'No account with this e-mail exists');
  }
  try {
    const row = await repository.insertMember(db, {
      id: newId(),
      org_id: access.orgId,
      user_id: user.id,
      role: input.role,
    });
    return toMember(db, row);
  } catch (error) {
    if (isUniqueViolation(error, 'organization_members_org_user_key')) {
      throw conflict('already_member', 'This account is already a member of the organization');
    }
    throw error;
  }
}

/** Changes a member's role; anything touching the owner role needs an owner. */
export async function changeMemberRole(
  db: Database,
  access: OrgAccess,
  userId: string,
  role: OrgRole,
): Promise<Member> {
  const member = await lockedMember(db, access, userId);
  requireRoleChange(access, member.role, role);
  if (member.role === role) return toMember(db, member);
  if (role !== 'owner') await keepAnOwner(db, member);
  return toMember(db, await repository.updateMemberRole(db, member.id, role));
}

/**
 * Removes a member, or lets a member leave. Removing someone else needs
 * owner or admin (owner to remove an owner); the last owner cannot go.
 */
export async function removeMember(db: Database, access: OrgAccess, userId: string): Promise<void> {
  const member = await lockedMember(db, access, userId);
  requireMemberRemoval(access, { userId: member.user_id, role: member.role });
  await keepAnOwner(db, member);
  await repository.deleteMember(db, member.id);
}
