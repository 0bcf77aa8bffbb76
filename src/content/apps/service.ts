import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { CreateOAuthApp, OAuthApp, OAuthAppWithSecret, UpdateOAuthApp } from './schemas.js';

export const CLIENT_SECRET_PREFIX = 'spcs_';

const columns = [
  'id',
  'owner_id',
  'name',
  'description',
  'client_id',
  'redirect_uris',
  'scopes',
  'created_at',
  'updated_at',
] as const;

export interface AppRow {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  client_id: string;
  redirect_uris: string[];
  scopes: string[];
  created_at: Date;
  updated_at: Date;
}

export function toApp(row: AppRow): OAuthApp {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    clientId: row.client_id,
    redirectUris: row.redirect_uris,
    scopes: row.scopes,
    ownerId: row.owner_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Absolute http(s) URLs without fragment or credentials; compared exactly later. */
function checkRedirectUris(uris: readonly string[]): string[] {
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw badRequest('invalid_redirect_uri', `"${uri}" is not an absolute URL`);
    }
    if (
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.hash !== '' ||
      url.username !== '' ||
      url.password !== ''
    ) {
      throw badRequest(
        'invalid_redirect_uri',
        `"${uri}" must be http or https, without fragment or credentials`,
      );
    }
  }
  return [...uris];
}

export async function createApp(
  db: Database,
  ownerId: string,
  input: CreateOAuthApp,
): Promise<OAuthAppWithSecret> {
  const clientSecret = generateToken(CLIENT_SECRET_PREFIX);
  const row = await db
    .insertInto('oauth_apps')
    .values({
      id: newId(),
      owner_id: ownerId,
      name: input.name.trim(),
      description: input.description ?? null,
      client_id: `app_${randomBytes(16).toString('hex')}`,
      client_secret_hash: hashToken(clientSecret),
      redirect_uris: checkRedirectUris(input.redirectUris),
      scopes: [...input.scopes],
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { ...toApp(row), clientSecret };
}

export async function listApps(db: Database, ownerId: string): Promise<OAuthApp[]> {
  const rows = await db
    .selectFrom('oauth_apps')
    .select(columns)
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toApp);
}

/** An app of this owner; 404 for anyone else's, as for an unknown one. */
async function requireOwnApp(db: Database, ownerId: string, appId: string): Promise<AppRow> {
  const row = await db
    .selectFrom('oauth_apps')
    .select(columns)
    .where('owner_id', '=', ownerId)
    .where('id', '=', appId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('App');
  return row;
}

export async function getApp(db: Database, ownerId: string, appId: string): Promise<OAuthApp> {
  return toApp(await requireOwnApp(db, ownerId, appId));
}

export async function updateApp(
  db: Database,
  ownerId: string,
  appId: string,
  input: UpdateOAuthApp,
): Promise<OAuthApp> {
  const before = await requireOwnApp(db, ownerId, appId);
  const row = await db
    .updateTable('oauth_apps')
    .set({
      name: input.name?.trim() ?? before.name,
      description: input.description === undefined ? before.description : input.description,
      redirect_uris:
        input.redirectUris === undefined
          ? before.redirect_uris
          : checkRedirectUris(input.redirectUris),
      scopes: input.scopes === undefined ? before.scopes : [...input.scopes],
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', appId)
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toApp(row);
}

/** Deletes the app; its codes and installations go with it, so its tokens stop working. */
export async function deleteApp(db: Database, ownerId: string, appId: string): Promise<void> {
  await requireOwnApp(db, ownerId, appId);
  await db.deleteFrom('oauth_apps').where('id', '=', appId).execute();
}

/** A new client secret, shown once; the old one stops working at once. */
export async function rotateClientSecret(
  db: Database,
  ownerId: string,
  appId: string,
): Promise<OAuthAppWithSecret> {
  await requireOwnApp(db, ownerId, appId);
  const clientSecret = generateToken(CLIENT_SECRET_PREFIX);
  const row = await db
    .updateTable('oauth_apps')
    .set({ client_secret_hash: hashToken(clientSecret), updated_at: sql<Date>`now()` })
    .where('id', '=', appId)
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { ...toApp(row), clientSecret };
}

/** The app of a client id, with its secret hash (consent and token exchange). */
export function findAppByClientId(db: Database, clientId: string) {
  return db
    .selectFrom('oauth_apps')
    .select([...columns, 'client_secret_hash'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}
