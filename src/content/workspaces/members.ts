import { findUserByEmail } from '../../accounts/service.js';
import type { Database } from '../../db/schema.js';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { PERMISSIONS } from '../access/permissions.js';
import { atLeast, type Role } from '../access/roles.js';
import { requireImage } from '../files/service.js';
import type { MemberRow } from './repository.js';
import * as repository from './repository.js';
import type { InviteMember, Member } from './schemas.js';

function toMember(row: MemberRow): Member {
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    avatarFileId: row.avatar_file_id,
    joinedAt: row.created_at.toISOString(),
  };
}

async function requireMember(db: Database, workspaceId: string, userId: string): Promise<Member> {
  const row = await repository.findMember(db, workspaceId, userId);
  if (row === undefined) throw notFound('Member');
  return toMember(row);
}

/** Only an owner may make someone owner, or change or remove an owner. */
function requireOwnerFor(access: WorkspaceAccess, touchesOwner: boolean): void {
  if (touchesOwner && access.role !== 'owner') {
    throw forbidden(
      'insufficient_role',
      'Only an owner can grant, change or remove the owner role',
      {
        required: 'owner',
        role: access.role,
      },
    );
  }
}

async function protectLastOwner(db: Database, workspaceId: string, userId: string): Promise<void> {
  const owners = await repository.lockOwners(db, workspaceId);
  if (owners.length === 1 && owners[0] === userId) {
    throw conflict(
      'last_owner',
      'The last owner cannot be demoted or removed; make someone else owner first',
    );
  }
}

export async function listMembers(db: Database, workspaceId: string): Promise<Member[]> {
  const rows = await repository.listMembers(db, workspaceId);
  return rows.map(toMember);
}

/** Attaches an existing account with a role, or changes the role of a member. */
export async function addMember(
  db: Database,
  access: WorkspaceAccess,
  input: InviteMember,
): Promise<Member> {
  const account = await findUserByEmail(db, input.email);
  if (account === undefined) {
    throw new AppError('account_not_found', 'No account with this e-mail exists', {
      email: input.email,
    });
  }
  const current = await repository.findMember(db, access.workspaceId, account.id);
  requireOwnerFor(access, input.role === 'owner' || current?.role === 'owner');
  if (current?.role === 'owner' && input.role !== 'owner') {
    await protectLastOwner(db, access.workspaceId, account.id);
  }
  await repository.upsertMember(db, {
    workspaceId: access.workspaceId,
    userId: account.id,
    role: input.role,
  });
  return requireMember(db, access.workspaceId, account.id);
}

/** Removes a member; anyone may leave, removing someone else needs `members.manage`. */
export async function removeMember(
  db: Database,
  access: WorkspaceAccess,
  userId: string,
): Promise<void> {
  const target = await requireMember(db, access.workspaceId, userId);
  const leaving = userId === access.userId && access.principal.kind === 'user';
  if (!leaving) {
    const required = PERMISSIONS['members.manage'];
    if (!atLeast(access.role, required)) {
      throw forbidden('insufficient_role', `This needs the ${required} role or above`, {
        required,
        role: access.role,
      });
    }
    requireOwnerFor(access, target.role === 'owner');
  }
  if (target.role === 'owner') await protectLastOwner(db, access.workspaceId, userId);
  await repository.deleteMember(db, access.workspaceId, userId);
}

export async function setMyAvatar(
  db: Database,
  access: WorkspaceAccess,
  fileId: string | null,
): Promise<Member> {
  if (fileId !== null) await requireImage(db, access.workspaceId, fileId);
  await repository.setMemberAvatar(db, access.workspaceId, access.userId, fileId);
  return requireMember(db, access.workspaceId, access.userId);
}

/** The ids among these that belong to members of the workspace (for person properties). */
export function memberIdsAmong(
  db: Database,
  workspaceId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  return repository.filterMembers(db, workspaceId, userIds);
}
