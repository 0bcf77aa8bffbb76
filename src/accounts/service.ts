import type { Config } from '../config.js';
import { acceptInvitation, claimInvitation } from '../content/invitations/service.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import { conflict, forbidden, notFound, unauthorized } from '../http/errors.js';
import type { UserPrincipal } from '../http/principal.js';
import { newId } from '../lib/ids.js';
import { generateToken, hashToken } from '../lib/tokens.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.js';
import type { UserRow } from './repository.js';
import * as repository from './repository.js';
import type { AuthUser, LoginBody, RegisterBody, RegistrationPolicy, Session } from './schemas.js';

export const SESSION_TOKEN_PREFIX = 'ses_';

export function toAuthUser(row: UserRow): AuthUser {
  return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at.toISOString() };
}

export function registrationPolicy(config: Config): RegistrationPolicy {
  const open = config.registrationMode === 'open';
  return {
    mode: config.registrationMode,
    doors: { password: open, provider: open && config.idp !== null, invitation: true },
    providerSignIn: config.idp !== null,
    providerName: config.idp?.name ?? null,
  };
}

/** Opens a session for a user; the token is returned here and never again. */
export async function openSession(db: Database, config: Config, user: UserRow): Promise<Session> {
  const token = generateToken(SESSION_TOKEN_PREFIX);
  await repository.insertSession(db, {
    id: newId(),
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + config.sessionTtlDays * 24 * 3600 * 1000),
  });
  return { token, user: toAuthUser(user) };
}

export async function register(
  db: Database,
  config: Config,
  input: RegisterBody,
): Promise<Session> {
  const token = input.invitation;
  if (token === undefined && config.registrationMode !== 'open') {
    throw forbidden('registration_closed', 'Registration is by invitation only');
  }
  // Checked before the slow hash too, so a bad invitation answers at once.
  if (token !== undefined) await claimInvitation(db, token, input.email);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const invitation =
      token === undefined ? undefined : await claimInvitation(trx, token, input.email);
    const user = await insertPasswordAccount(trx, input, passwordHash);
    if (invitation !== undefined) await acceptInvitation(trx, invitation, user.id);
    return openSession(trx, config, user);
  });
}

/** The one insert of a password account: an address already used is `email_taken`. */
async function insertPasswordAccount(
  db: Database,
  input: NewAccount,
  passwordHash: string,
): Promise<UserRow> {
  try {
    return await repository.insertUser(db, {
      id: newId(),
      email: input.email,
      name: input.name.trim(),
      password_hash: passwordHash,
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) {
      throw conflict('email_taken', 'An account with this e-mail already exists');
    }
    throw error;
  }
}

export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

/**
 * Creates a password account whatever the registration mode: the operator's
 * door (`sparrow user create`, ADMIN_EMAIL at start). Callers check the input
 * against the rules of `RegisterBody` first, as the route does.
 */
export async function createAccount(db: Database, input: NewAccount): Promise<AuthUser> {
  const passwordHash = await hashPassword(input.password);
  return toAuthUser(await insertPasswordAccount(db, input, passwordHash));
}

/** Whether any account exists yet (a fresh instance has none). */
export async function hasAccounts(db: Database): Promise<boolean> {
  return repository.anyUserExists(db);
}

/**
 * Verifies exactly one password hash whether or not the account exists, so
 * the answer and its timing say nothing about which e-mails are registered.
 */
export async function login(db: Database, config: Config, input: LoginBody): Promise<Session> {
  const user = await repository.findUserByEmail(db, input.email);
  const storedHash = user?.password_hash ?? DUMMY_PASSWORD_HASH;
  const matches = await verifyPassword(input.password, storedHash);
  if (user === undefined || user.password_hash === null || !matches) {
    throw unauthorized('invalid_credentials', 'Invalid e-mail or password');
  }
  return openSession(db, config, user);
}

/** Revokes the session of this token; revoking a revoked session again is fine. */
export async function logout(db: Database, token: string): Promise<void> {
  const found = await repository.revokeSessionByHash(db, hashToken(token));
  if (!found) throw unauthorized('invalid_token', 'The token is not a session token');
}

export async function getUser(db: Database, userId: string): Promise<AuthUser> {
  const user = await repository.findUserById(db, userId);
  if (user === undefined) throw notFound('User');
  return toAuthUser(user);
}

/** The account with this e-mail (compared case-insensitively), for other modules. */
export async function findUserByEmail(db: Database, email: string): Promise<AuthUser | undefined> {
  const user = await repository.findUserByEmail(db, email);
  return user === undefined ? undefined : toAuthUser(user);
}

/** The accounts with these ids, by id; ids without an account are absent. */
export async function getUsers(
  db: Database,
  ids: readonly string[],
): Promise<Map<string, AuthUser>> {
  const users = await repository.findUsersByIds(db, ids);
  return new Map(users.map((user) => [user.id, toAuthUser(user)]));
}

export async function resolveSession(db: Database, token: string): Promise<UserPrincipal | null> {
  const session = await repository.findLiveSession(db, hashToken(token));
  if (session === undefined) return null;
  return { kind: 'user', userId: session.user_id, sessionId: session.id, label: session.name };
}

/** An account by e-mail (case-insensitive), for attaching it to a workspace. */
export async function findAccountByEmail(
  db: Database,
  email: string,
): Promise<AuthUser | undefined> {
  const user = await repository.findUserByEmail(db, email);
  return user && toAuthUser(user);
}
