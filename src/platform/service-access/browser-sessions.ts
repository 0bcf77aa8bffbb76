import { sql } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken } from '../../lib/tokens.js';

/** The one-time code a sign-in on the API host hands to the service's domain. */
export const ACCESS_CODE_PREFIX = 'spc_';
/** A session on one service's domain (never sent anywhere but that domain's cookie). */
export const SERVICE_SESSION_PREFIX = 'svs_';
/** A code is good once, for this long. */
export const ACCESS_CODE_TTL_MS = 60_000;
/** A service-domain session lasts this long at most (and never past its platform session). */
export const SERVICE_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface IssuedCode {
  serviceId: string;
  userId: string;
  sessionId: string;
  /** The state the browser holds in its cookie on the service's domain. */
  state: string;
  returnTo: string;
}

/** Stores a one-time code (hashed) and returns it. */
export async function issueCode(db: Database, issued: IssuedCode): Promise<string> {
  const code = generateToken(ACCESS_CODE_PREFIX);
  await db.deleteFrom('service_access_codes').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('service_access_codes')
    .values({
      code_hash: hashToken(code),
      service_id: issued.serviceId,
      user_id: issued.userId,
      session_id: issued.sessionId,
      state_hash: hashToken(issued.state),
      return_to: issued.returnTo,
      expires_at: new Date(Date.now() + ACCESS_CODE_TTL_MS),
    })
    .execute();
  return code;
}

/**
 * Takes a code, once: it is deleted whether or not it is still good. Good
 * means unexpired, for this service, and begun in this browser (the state
 * cookie); the platform session that asked for it must still be live.
 */
export async function takeCode(
  db: Database,
  code: string,
  serviceId: string,
  state: string | undefined,
): Promise<{ userId: string; sessionId: string; returnTo: string; until: Date } | undefined> {
  const row = await db
    .deleteFrom('service_access_codes')
    .where('code_hash', '=', hashToken(code))
    .returningAll()
    .executeTakeFirst();
  if (row === undefined || state === undefined) return undefined;
  if (row.service_id !== serviceId || row.state_hash !== hashToken(state)) return undefined;
  if (row.expires_at.getTime() <= Date.now()) return undefined;
  const session = await db
    .selectFrom('sessions')
    .select('expires_at')
    .where('id', '=', row.session_id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (session === undefined) return undefined;
  return {
    userId: row.user_id,
    sessionId: row.session_id,
    returnTo: row.return_to,
    until: session.expires_at,
  };
}

/** Opens a session on the service's domain; returns its token (for the cookie only). */
export async function openServiceSession(
  db: Database,
  serviceId: string,
  taken: { userId: string; sessionId: string; until: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken(SERVICE_SESSION_PREFIX);
  const expiresAt = new Date(Math.min(Date.now() + SERVICE_SESSION_TTL_MS, taken.until.getTime()));
  await db.deleteFrom('service_sessions').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('service_sessions')
    .values({
      id: newId(),
      token_hash: hashToken(token),
      service_id: serviceId,
      user_id: taken.userId,
      session_id: taken.sessionId,
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/** The person of a live service session on this service (its platform session live too). */
export async function liveServiceSession(
  db: Database,
  tokenHash: string,
  serviceId: string,
): Promise<{ userId: string; until: Date } | undefined> {
  const { rows } = await sql<{ user_id: string; until: Date | string }>`${PREPARED}
    select ss.user_id, least(ss.expires_at, s.expires_at) as until
      from service_sessions ss join sessions s on s.id = ss.session_id
     where ss.token_hash = ${tokenHash} and ss.service_id = ${serviceId}
       and ss.expires_at > now() and s.revoked_at is null and s.expires_at > now()`.execute(db);
  const row = rows[0];
  return row === undefined ? undefined : { userId: row.user_id, until: new Date(row.until) };
}
