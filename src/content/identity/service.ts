import { createHash, randomBytes } from 'node:crypto';
import { findUserByEmail, findUserById, insertUser } from '../../accounts/repository.js';
import type { Session } from '../../accounts/schemas.js';
import { openSession } from '../../accounts/service.js';
import type { Config } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { badRequest, conflict, forbidden } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { hashToken } from '../../lib/tokens.js';
import { acceptInvitation, claimInvitation } from '../invitations/service.js';
import type { VerifiedIdentity } from './provider.js';
import type { UserIdentity } from './schemas.js';

const STATE_TTL_MS = 10 * 60 * 1000;

function toIdentity(row: {
  id: string;
  issuer: string;
  email: string | null;
  created_at: Date;
  last_used_at: Date | null;
}): UserIdentity {
  return {
    id: row.id,
    issuer: row.issuer,
    email: row.email,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

function findIdentity(db: Database, identity: VerifiedIdentity) {
  return db
    .selectFrom('user_identities')
    .select(['id', 'user_id', 'issuer', 'email', 'created_at', 'last_used_at'])
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
}

/**
 * Provider sign-in with a verified identity. A known identity opens a session
 * (200). An unknown one creates the account (201) when registration is open,
 * or with a valid invitation for the verified address; never by linking to an
 * existing account with that address (409 `identity_clash`). An invitation
 * given with a known identity is redeemed too.
 */
export async function signIn(
  db: Database,
  config: Config,
  identity: VerifiedIdentity,
  invitation: string | undefined,
): Promise<{ session: Session; created: boolean }> {
  try {
    return await inTransaction(db, async (trx) => {
      const known = await findIdentity(trx, identity);
      const claimed =
        invitation === undefined
          ? undefined
          : await claimInvitation(trx, invitation, identity.email);
      if (known !== undefined) {
        const user = await findUserById(trx, known.user_id);
        if (user === undefined) throw new Error('identity without account');
        await trx
          .updateTable('user_identities')
          .set({ last_used_at: new Date(), email: identity.email })
          .where('id', '=', known.id)
          .execute();
        if (claimed !== undefined) await acceptInvitation(trx, claimed, user.id);
        return { session: await openSession(trx, config, user), created: false };
      }
      if (claimed === undefined && config.registrationMode !== 'open') {
        throw forbidden('registration_closed', 'Registration is by invitation only');
      }
      if ((await findUserByEmail(trx, identity.email)) !== undefined) {
        throw identityClash();
      }
      const user = await insertUser(trx, {
        id: newId(),
        email: identity.email,
        name: identity.name ?? identity.email.split('@')[0] ?? identity.email,
        password_hash: null,
      });
      await trx
        .insertInto('user_identities')
        .values({
          id: newId(),
          user_id: user.id,
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
          last_used_at: new Date(),
        })
        .execute();
      if (claimed !== undefined) await acceptInvitation(trx, claimed, user.id);
      return { session: await openSession(trx, config, user), created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw identityClash();
    if (isUniqueViolation(error, 'user_identities_subject_key')) {
      throw conflict('identity_taken', 'This identity was just linked to another account');
    }
    throw error;
  }
}

function identityClash(): Error {
  return conflict(
    'identity_clash',
    'An account with this e-mail exists without this identity; sign in and link it from the account',
  );
}

/**
 * Links a verified identity to the caller's account: idempotent when it is
 * already theirs; 409 when it belongs to another account (`identity_taken`)
 * or the account already has one from this provider (`identity_exists`). The
 * provider's address need not equal the account's.
 */
export async function linkIdentity(
  db: Database,
  userId: string,
  identity: VerifiedIdentity,
): Promise<UserIdentity> {
  try {
    return await inTransaction(db, async (trx) => {
      const known = await findIdentity(trx, identity);
      if (known !== undefined) {
        if (known.user_id !== userId) {
          throw conflict('identity_taken', 'This identity is linked to another account');
        }
        return toIdentity(known);
      }
      const row = await trx
        .insertInto('user_identities')
        .values({
          id: newId(),
          user_id: userId,
          issuer: identity.issuer,
          subject: identity.subject,
          email: identity.email,
        })
        .returning(['id', 'issuer', 'email', 'created_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
      return toIdentity(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'user_identities_user_key')) {
      throw conflict(
        'identity_exists',
        'This account is already linked to an identity of this provider',
      );
    }
    if (isUniqueViolation(error, 'user_identities_subject_key')) {
      throw conflict('identity_taken', 'This identity is linked to another account');
    }
    throw error;
  }
}

export async function listIdentities(db: Database, userId: string): Promise<UserIdentity[]> {
  const rows = await db
    .selectFrom('user_identities')
    .select(['id', 'issuer', 'email', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toIdentity);
}

/** Starts a browser sign-in: a state, a nonce and a PKCE verifier, kept 10 minutes. */
export async function beginBrowserSignIn(
  db: Database,
  options: { invitation?: string; returnTo?: string },
): Promise<{ state: string; nonce: string; codeChallenge: string }> {
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  await db.deleteFrom('idp_login_states').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('idp_login_states')
    .values({
      id: newId(),
      state_hash: hashToken(state),
      code_verifier: codeVerifier,
      nonce,
      invitation: options.invitation ?? null,
      return_to: options.returnTo ?? '/',
      expires_at: new Date(Date.now() + STATE_TTL_MS),
    })
    .execute();
  return {
    state,
    nonce,
    codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
  };
}

/** Takes (once) the sign-in started with this state; 400 `invalid_state` when unknown or stale. */
export async function takeBrowserSignIn(db: Database, state: string) {
  const row = await db
    .deleteFrom('idp_login_states')
    .where('state_hash', '=', hashToken(state))
    .returning(['code_verifier', 'nonce', 'invitation', 'return_to', 'expires_at'])
    .executeTakeFirst();
  if (row === undefined || row.expires_at.getTime() <= Date.now()) {
    throw badRequest('invalid_state', 'This sign-in is unknown or has expired; start again');
  }
  return row;
}
