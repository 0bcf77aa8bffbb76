import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken, tokenPreview } from '../../lib/tokens.js';
import { isRole, lowerRole, type Role } from '../access/roles.js';
import type { AppPrincipal } from './principal.js';
import type { AppInstallation } from './schemas.js';
import { isAppScope } from './scopes.js';

export const APP_TOKEN_PREFIX = 'spa_';

interface InstallationRow {
  id: string;
  app_id: string;
  app_name: string;
  workspace_id: string;
  role: string;
  scopes: string[];
  token_prefix: string;
  installed_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

function toInstallation(row: InstallationRow): AppInstallation {
  return {
    id: row.id,
    appId: row.app_id,
    appName: row.app_name,
    workspaceId: row.workspace_id,
    role: row.role as Role,
    scopes: row.scopes,
    tokenPrefix: row.token_prefix,
    installedBy: row.installed_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

function selectInstallations(db: Database) {
  return db
    .selectFrom('app_installations as i')
    .innerJoin('oauth_apps as a', 'a.id', 'i.app_id')
    .select([
      'i.id',
      'i.app_id',
      'a.name as app_name',
      'i.workspace_id',
      'i.role',
      'i.scopes',
      'i.token_prefix',
      'i.installed_by',
      'i.created_at',
      'i.last_used_at',
      'i.revoked_at',
    ]);
}

/**
 * Installs an app in a workspace and returns its token (shown once). An app
 * has one live installation per workspace: installing it again revokes the
 * earlier one.
 */
export async function createInstallation(
  db: Database,
  grant: { appId: string; workspaceId: string; userId: string; role: string; scopes: string[] },
): Promise<{ installation: AppInstallation; token: string }> {
  await db
    .updateTable('app_installations')
    .set({ revoked_at: sql<Date>`now()` })
    .where('app_id', '=', grant.appId)
    .where('workspace_id', '=', grant.workspaceId)
    .where('revoked_at', 'is', null)
    .execute();
  const token = generateToken(APP_TOKEN_PREFIX);
  const id = newId();
  await db
    .insertInto('app_installations')
    .values({
      id,
      app_id: grant.appId,
      workspace_id: grant.workspaceId,
      installed_by: grant.userId,
      role: grant.role,
      scopes: grant.scopes,
      token_hash: hashToken(token),
      token_prefix: tokenPreview(token, APP_TOKEN_PREFIX),
    })
    .execute();
  const row = await selectInstallations(db).where('i.id', '=', id).executeTakeFirstOrThrow();
  return { installation: toInstallation(row), token };
}

export async function listInstallations(
  db: Database,
  workspaceId: string,
): Promise<AppInstallation[]> {
  const rows = await selectInstallations(db)
    .where('i.workspace_id', '=', workspaceId)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
  return rows.map(toInstallation);
}

/** Revokes one installation: its token stops working at once; the row stays listed. */
export async function revokeInstallation(
  db: Database,
  workspaceId: string,
  installationId: string,
): Promise<void> {
  const row = await db
    .updateTable('app_installations')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', installationId)
    .returning('id')
    .executeTakeFirst();
  if (row === undefined) throw notFound('App installation');
}

export async function revokeInstallationById(db: Database, installationId: string): Promise<void> {
  await db
    .updateTable('app_installations')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', installationId)
    .execute();
}

/**
 * The principal of a live installation token. Its role is the lower of the
 * installation's and the installer's current role (it stops when the
 * installer leaves, like a workspace key); its scopes are those granted that
 * the app still asks for.
 */
export async function resolveInstallation(
  db: Database,
  token: string,
): Promise<AppPrincipal | null> {
  const row = await db
    .selectFrom('app_installations as i')
    .innerJoin('oauth_apps as a', 'a.id', 'i.app_id')
    .innerJoin('workspace_members as m', (join) =>
      join.onRef('m.workspace_id', '=', 'i.workspace_id').onRef('m.user_id', '=', 'i.installed_by'),
    )
    .select([
      'i.id',
      'i.app_id',
      'a.name',
      'a.scopes as app_scopes',
      'i.workspace_id',
      'i.role',
      'i.scopes',
      'i.installed_by',
      'i.last_used_at',
      'm.role as installer_role',
    ])
    .where('i.token_hash', '=', hashToken(token))
    .where('i.revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined || !isRole(row.role) || !isRole(row.installer_role)) return null;
  if (row.last_used_at === null || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db
      .updateTable('app_installations')
      .set({ last_used_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
  }
  const scopes = row.scopes.filter((scope) => row.app_scopes.includes(scope)).filter(isAppScope);
  return {
    kind: 'app',
    label: row.name,
    appId: row.app_id,
    installationId: row.id,
    workspaceId: row.workspace_id,
    role: lowerRole(row.role, row.installer_role),
    scopes,
    userId: row.installed_by,
    actor: { kind: 'app', label: row.name, appInstallationId: row.id },
  };
}
