import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { WorkspaceGrant } from '../access/authorize.js';
import { PERMISSIONS } from '../access/permissions.js';
import { atLeast, type Role } from '../access/roles.js';
import { listWorkspaces } from '../workspaces/service.js';
import { createInstallation, revokeInstallationById } from './installations.js';
import type {
  Consent,
  ConsentPreview,
  ConsentQuery,
  ConsentResult,
  TokenRequest,
  TokenResponse,
} from './schemas.js';
import { APP_SCOPES, isAppScope } from './scopes.js';
import { findAppByClientId } from './service.js';

/** Authorization codes live 10 minutes and are used once. */
export const CODE_TTL_MS = 10 * 60 * 1000;
const CODE_PREFIX = 'spoc_';

/** Client and redirect URI are checked before anything else; their failure is never redirected. */
async function requireClient(db: Database, clientId: string, redirectUri: string) {
  const app = await findAppByClientId(db, clientId);
  if (app === undefined) throw badRequest('unknown_client', 'Unknown client_id');
  if (!app.redirect_uris.includes(redirectUri)) {
    throw badRequest(
      'invalid_redirect_uri',
      'redirect_uri must equal one of the app’s registered redirect URIs',
    );
  }
  return app;
}

function requestedScopes(appScopes: readonly string[], asked: readonly string[]): string[] {
  const unknown = asked.find((scope) => !isAppScope(scope) || !appScopes.includes(scope));
  if (unknown !== undefined) {
    throw badRequest('invalid_scope', `"${unknown}" is not a scope this app asks for`, {
      scope: unknown,
    });
  }
  return [...new Set(asked)];
}

/** What a consent screen shows: the app, the scopes asked for, the workspaces it can go to. */
export async function previewConsent(
  db: Database,
  principal: UserPrincipal,
  query: ConsentQuery,
): Promise<ConsentPreview> {
  const app = await requireClient(db, query.client_id, query.redirect_uri);
  const asked = query.scope?.split(' ').filter((scope) => scope !== '') ?? app.scopes;
  const scopes = requestedScopes(app.scopes, asked.length > 0 ? asked : app.scopes);
  const workspaces = await listWorkspaces(db, principal.userId);
  return {
    app: { name: app.name, description: app.description, clientId: app.client_id },
    redirectUri: query.redirect_uri,
    scopes: scopes.filter(isAppScope).map((scope) => ({ scope, label: APP_SCOPES[scope] })),
    workspaces: workspaces
      .filter((workspace) => atLeast(workspace.role, PERMISSIONS['apps.manage']))
      .map((workspace) => ({ id: workspace.id, name: workspace.name, role: workspace.role })),
  };
}

/**
 * The consent of a workspace admin: a code bound to the app, the workspace,
 * the redirect URI, the granted scopes and role, and the PKCE challenge.
 */
export async function grantConsent(
  db: Database,
  access: WorkspaceGrant,
  input: Consent,
): Promise<ConsentResult> {
  const app = await requireClient(db, input.clientId, input.redirectUri);
  const scopes = requestedScopes(app.scopes, input.scopes);
  const role: Role = input.role ?? 'member';
  if (!atLeast(access.role, role)) {
    throw forbidden('role_above_granter', 'An app cannot get a role above yours', {
      role,
      granterRole: access.role,
    });
  }
  const code = generateToken(CODE_PREFIX);
  const expiresAt = new Date(Date.now() + CODE_TTL_MS);
  await db
    .insertInto('oauth_authorization_codes')
    .values({
      id: newId(),
      code_hash: hashToken(code),
      app_id: app.id,
      workspace_id: access.workspaceId,
      user_id: access.userId,
      redirect_uri: input.redirectUri,
      scopes,
      role,
      code_challenge: input.codeChallenge,
      expires_at: expiresAt,
    })
    .execute();
  const redirect = new URL(input.redirectUri);
  redirect.searchParams.set('code', code);
  if (input.state !== undefined) redirect.searchParams.set('state', input.state);
  return {
    code,
    state: input.state ?? null,
    expiresAt: expiresAt.toISOString(),
    redirectTo: redirect.toString(),
  };
}

interface Exchange {
  code: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  redirectUri: string;
  codeVerifier: string;
}

/** The JSON body, the RFC 6749 form, and HTTP Basic client credentials, as one exchange. */
export function readExchange(body: TokenRequest, authorization: string | undefined): Exchange {
  let basic: { id: string; secret: string } | undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (match?.[1] !== undefined) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw badRequest('invalid_request', 'Malformed Basic credentials');
    try {
      basic = {
        id: decodeURIComponent(decoded.slice(0, colon)),
        secret: decodeURIComponent(decoded.slice(colon + 1)),
      };
    } catch {
      throw badRequest('invalid_request', 'Malformed Basic credentials');
    }
  }
  const exchange: Exchange =
    'grant_type' in body
      ? {
          code: body.code,
          clientId: body.client_id,
          clientSecret: body.client_secret,
          redirectUri: body.redirect_uri,
          codeVerifier: body.code_verifier,
        }
      : {
          code: body.code,
          clientId: body.clientId,
          clientSecret: body.clientSecret,
          redirectUri: body.redirectUri,
          codeVerifier: body.codeVerifier,
        };
  if (basic !== undefined) {
    if (exchange.clientSecret !== undefined || (exchange.clientId ?? basic.id) !== basic.id) {
      throw badRequest(
        'invalid_request',
        'Send the client credentials once: in the body or as Basic',
      );
    }
    exchange.clientId = basic.id;
    exchange.clientSecret = basic.secret;
  }
  if (exchange.clientSecret === undefined) {
    throw badRequest('invalid_request', 'The client secret is required');
  }
  return exchange;
}

function sameSecret(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * Exchanges a code for an installation token. The code is burnt by any
 * attempt: it is consumed in the transaction that creates the installation,
 * and a failed exchange commits its consumption before answering 403. A code
 * presented again revokes the installation it created (RFC 6749 4.1.2).
 */
export async function exchangeCode(db: Database, exchange: Exchange): Promise<TokenResponse> {
  const outcome = await inTransaction(db, async (trx) => {
    const code = await trx
      .selectFrom('oauth_authorization_codes')
      .selectAll()
      .where('code_hash', '=', hashToken(exchange.code))
      .forUpdate()
      .executeTakeFirst();
    if (code === undefined) return { refused: 'invalid_grant' as const };
    if (code.consumed_at !== null) {
      if (code.installation_id !== null) await revokeInstallationById(trx, code.installation_id);
      return { refused: 'invalid_grant' as const };
    }
    await trx
      .updateTable('oauth_authorization_codes')
      .set({ consumed_at: sql<Date>`now()` })
      .where('id', '=', code.id)
      .execute();
    const app = await trx
      .selectFrom('oauth_apps')
      .select(['id', 'client_id', 'client_secret_hash', 'scopes'])
      .where('id', '=', code.app_id)
      .executeTakeFirst();
    if (
      app === undefined ||
      (exchange.clientId !== undefined && exchange.clientId !== app.client_id) ||
      !sameSecret(exchange.clientSecret ?? '', app.client_secret_hash)
    ) {
      return { refused: 'invalid_client' as const };
    }
    if (
      code.expires_at.getTime() <= Date.now() ||
      code.redirect_uri !== exchange.redirectUri ||
      pkceChallenge(exchange.codeVerifier) !== code.code_challenge
    ) {
      return { refused: 'invalid_grant' as const };
    }
    const scopes = code.scopes.filter((scope) => app.scopes.includes(scope));
    const created = await createInstallation(trx, {
      appId: app.id,
      workspaceId: code.workspace_id,
      userId: code.user_id,
      role: code.role,
      scopes,
    });
    await trx
      .updateTable('oauth_authorization_codes')
      .set({ installation_id: created.installation.id })
      .where('id', '=', code.id)
      .execute();
    return { refused: null, created };
  });
  if (outcome.refused !== null) {
    throw forbidden(
      outcome.refused,
      outcome.refused === 'invalid_client'
        ? 'The client credentials were refused'
        : 'The code, its PKCE verifier or the redirect URI was refused',
    );
  }
  const { installation, token } = outcome.created;
  return {
    access_token: token,
    token_type: 'Bearer',
    scope: installation.scopes.join(' '),
    installation,
  };
}
