import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { diff } from '../../events/changes.js';
import { deleteWorkspaceLog, type EventSinks, recordEvent } from '../../events/writer.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import { newId } from '../../lib/ids.js';
import { ownerAccess, type WorkspaceAccess, type WorkspaceGrant } from '../access/authorize.js';
import type { Role } from '../access/roles.js';
import { createStatuses, DEFAULT_STATUSES } from '../statuses/service.js';
import { createItemNumbers, dropItemNumbers } from './numbers.js';
import type { WorkspaceRow } from './repository.js';
import * as repository from './repository.js';
import { RESERVED_SLUGS } from './reserved-slugs.js';
import type { CreateWorkspace, UpdateWorkspace, WorkspaceMembership } from './schemas.js';

type CoverLayout = WorkspaceMembership['coverLayout'];

function toMembership(row: WorkspaceRow, role: Role): WorkspaceMembership {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    coverLayout: row.cover_layout as CoverLayout,
    role,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Creates a workspace owned by the caller, with the three default statuses (logged as events). */
export async function createWorkspace(
  db: Database,
  principal: UserPrincipal,
  input: CreateWorkspace,
  eventSinks: EventSinks,
): Promise<WorkspaceMembership> {
  if (RESERVED_SLUGS.has(input.slug)) {
    throw badRequest(
      'slug_reserved',
      `The slug "${input.slug}" is a path of the web app; choose another`,
      { slug: input.slug },
    );
  }
  let row: WorkspaceRow;
  try {
    row = await repository.insertWorkspace(db, {
      id: newId(),
      name: input.name.trim(),
      slug: input.slug,
      coverLayout: input.coverLayout ?? 'none',
    });
  } catch (error) {
    if (isUniqueViolation(error, 'workspaces_slug_key')) {
      throw conflict('slug_taken', 'Another workspace uses this slug');
    }
    throw error;
  }
  await createItemNumbers(db, row.id);
  await repository.upsertMember(db, {
    workspaceId: row.id,
    userId: principal.userId,
    role: 'owner',
  });
  await createStatuses(db, ownerAccess(row.id, principal, eventSinks), DEFAULT_STATUSES);
  return toMembership(row, 'owner');
}

export async function listWorkspaces(db: Database, userId: string): Promise<WorkspaceMembership[]> {
  const rows = await repository.listWorkspacesOfUser(db, userId);
  return rows.map((row) => toMembership(row, row.role as Role));
}

export async function getWorkspace(
  db: Database,
  access: WorkspaceGrant,
): Promise<WorkspaceMembership> {
  const row = await repository.findWorkspace(db, access.workspaceId);
  if (row === undefined) throw new Error('authorized workspace vanished');
  return toMembership(row, access.role);
}

export async function updateWorkspace(
  db: Database,
  access: WorkspaceAccess,
  input: UpdateWorkspace,
): Promise<WorkspaceMembership> {
  const before = await repository.findWorkspaceForUpdate(db, access.workspaceId);
  if (before === undefined) throw new Error('authorized workspace vanished');
  const next = {
    name: input.name?.trim() ?? before.name,
    cover_layout: input.coverLayout ?? before.cover_layout,
  };
  const changed = diff(
    { name: before.name, coverLayout: before.cover_layout },
    { name: next.name, coverLayout: next.cover_layout },
    ['name', 'coverLayout'],
  );
  if (Object.keys(changed).length === 0) return toMembership(before, access.role);
  const row = await repository.updateWorkspace(db, access.workspaceId, {
    name: next.name,
    coverLayout: next.cover_layout,
  });
  await recordEvent(
    db,
    { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks },
    {
      type: 'workspace.updated',
      resource: { kind: 'workspace', id: access.workspaceId },
      changes: changed,
    },
  );
  return toMembership(row, access.role);
}

/**
 * Deletes the workspace and, through the foreign keys, everything it owns
 * (the event log included). File bytes are removed by the caller once this
 * transaction has committed.
 */
export async function deleteWorkspace(
  db: Database,
  access: WorkspaceAccess,
  slug: string,
): Promise<void> {
  const row = await repository.findWorkspaceForUpdate(db, access.workspaceId);
  if (row === undefined) throw new Error('authorized workspace vanished');
  if (row.slug !== slug) {
    throw badRequest(
      'slug_mismatch',
      'The slug does not match this workspace; send its slug to confirm',
    );
  }
  await deleteWorkspaceLog(db, access.workspaceId);
  await repository.deleteWorkspace(db, access.workspaceId);
  await dropItemNumbers(db, access.workspaceId);
}

/** Hands out `count` consecutive item numbers; never reused, even after deletion. */
