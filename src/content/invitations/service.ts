import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken, tokenPreview } from '../../lib/tokens.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { atLeast, type Role } from '../access/roles.js';
import { upsertMember } from '../workspaces/repository.js';
import {
  type AcceptedInvitation,
  type CreatedInvitation,
  type CreateInvitation,
  INVITATION_PREFIX,
  type Invitation,
  type InvitationPreview,
} from './schemas.js';

const DEFAULT_DAYS = 7;

const columns = [
  'id',
  'workspace_id',
  'email',
  'role',
  'token_prefix',
  'created_by',
  'created_at',
  'expires_at',
  'revoked_at',
  'accepted_at',
  'accepted_by',
] as const;

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  token_prefix: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  accepted_at: Date | null;
  accepted_by: string | null;
}

function stateOf(row: InvitationRow): Invitation['state'] {
  if (row.accepted_at !== null) return 'accepted';
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at.getTime() <= Date.now()) return 'expired';
  return 'pending';
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    state: stateOf(row),
    tokenPrefix: row.token_prefix,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    acceptedBy: row.accepted_by,
  };
}

export async function createInvitation(
  db: Database,
  access: WorkspaceAccess,
  input: CreateInvitation,
): Promise<CreatedInvitation> {
  if (!atLeast(access.role, input.role)) {
    throw forbidden('role_above_inviter', 'An invitation cannot grant a role above yours', {
      role: input.role,
      inviterRole: access.role,
    });
  }
  const token = generateToken(INVITATION_PREFIX);
  const row = await db
    .insertInto('workspace_invitations')
    .values({
      id: newId(),
      workspace_id: access.workspaceId,
      email: input.email,
      role: input.role,
      token_hash: hashToken(token),
      token_prefix: tokenPreview(token, INVITATION_PREFIX),
      created_by: access.userId,
      expires_at: new Date(Date.now() + (input.expiresInDays ?? DEFAULT_DAYS) * 24 * 3600 * 1000),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { ...toInvitation(row), token };
}

export async function listInvitations(db: Database, workspaceId: string): Promise<Invitation[]> {
  const rows = await db
    .selectFrom('workspace_invitations')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toInvitation);
}

/** Revokes a pending invitation; revoking again is fine; an accepted one is 409. */
export async function revokeInvitation(
  db: Database,
  workspaceId: string,
  invitationId: string,
): Promise<void> {
  const row = await db
    .selectFrom('workspace_invitations')
    .select(['id', 'accepted_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', invitationId)
    .forUpdate()
    .executeTakeFirst();
  if (row === undefined) throw notFound('Invitation');
  if (row.accepted_at !== null) {
    throw conflict('invitation_accepted', 'The invitation was already accepted');
  }
  await db
    .updateTable('workspace_invitations')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', invitationId)
    .execute();
}

function liveInvitation(db: Database, token: string) {
  return db
    .selectFrom('workspace_invitations')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_invitations.workspace_id')
    .select([
      'workspace_invitations.id',
      'workspace_invitations.workspace_id',
      'workspace_invitations.email',
      'workspace_invitations.role',
      'workspace_invitations.expires_at',
      'workspaces.name as workspace_name',
      'workspaces.slug as workspace_slug',
    ])
    .where('workspace_invitations.token_hash', '=', hashToken(token))
    .where('workspace_invitations.revoked_at', 'is', null)
    .where('workspace_invitations.accepted_at', 'is', null)
    .where('workspace_invitations.expires_at', '>', sql<Date>`now()`);
}

/** What an invitation offers; 404 alike for unknown, expired, revoked and used tokens. */
export async function previewInvitation(db: Database, token: string): Promise<InvitationPreview> {
  const row = await liveInvitation(db, token).executeTakeFirst();
  if (row === undefined) throw notFound('Invitation');
  return {
    workspace: { id: row.workspace_id, name: row.workspace_name, slug: row.workspace_slug },
    email: row.email,
    role: row.role as Role,
    expiresAt: row.expires_at.toISOString(),
  };
}

function invalid(): Error {
  return forbidden(
    'invitation_invalid',
    'The invitation is invalid, expired or for another address',
  );
}

/**
 * Checks (and locks) a live invitation for this address; 403 `invitation_invalid`
 * otherwise. Call `acceptInvitation` once the account exists, in the same transaction.
 */
export async function claimInvitation(
  db: Database,
  token: string,
  email: string,
): Promise<{ id: string; workspaceId: string; role: string }> {
  const row = await liveInvitation(db, token).forUpdate('workspace_invitations').executeTakeFirst();
  if (row === undefined || row.email.toLowerCase() !== email.toLowerCase()) throw invalid();
  return { id: row.id, workspaceId: row.workspace_id, role: row.role };
}

/** Makes the account a member with the invited role; the invitation is used up. */
export async function acceptInvitation(
  db: Database,
  invitation: { id: string; workspaceId: string; role: string },
  userId: string,
): Promise<void> {
  await upsertMember(db, { workspaceId: invitation.workspaceId, userId, role: invitation.role });
  await db
    .updateTable('workspace_invitations')
    .set({ accepted_at: sql<Date>`now()`, accepted_by: userId })
    .where('id', '=', invitation.id)
    .execute();
}

/**
 * A signed-in person joins with an invitation for their own address. A
 * member already keeps a higher role than the invited one (an invitation
 * never demotes); the invitation is used up either way.
 */
export async function joinWithInvitation(
  db: Database,
  userId: string,
  token: string,
): Promise<AcceptedInvitation> {
  const user = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const invitation = await claimInvitation(db, token, user.email);
  const current = await db
    .selectFrom('workspace_members')
    .select('role')
    .where('workspace_id', '=', invitation.workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const role =
    current !== undefined && atLeast(current.role as Role, invitation.role as Role)
      ? current.role
      : invitation.role;
  await acceptInvitation(db, { ...invitation, role }, userId);
  const workspace = await db
    .selectFrom('workspaces')
    .select(['id', 'name', 'slug'])
    .where('id', '=', invitation.workspaceId)
    .executeTakeFirstOrThrow();
  return { workspace, role: role as Role };
}
