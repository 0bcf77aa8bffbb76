import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { authorizeWorkspace } from '../access/authorize.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import * as installations from './installations.js';
import { exchangeCode, grantConsent, previewConsent, readExchange } from './oauth.js';
import {
  AppInstallation,
  Consent,
  ConsentPreview,
  ConsentQuery,
  ConsentResult,
  CreateOAuthApp,
  OAuthApp,
  OAuthAppWithSecret,
  ScopeDescription,
  TokenRequest,
  TokenResponse,
  UpdateOAuthApp,
} from './schemas.js';
import { APP_SCOPES, SCOPE_NAMES } from './scopes.js';
import * as service from './service.js';

const OAUTH_FLOW =
  'The flow: register an app (`POST /apps`: name, redirect URIs, scopes; client id and a client secret shown ' +
  'once). A workspace admin consents (`GET /oauth/authorize` to show the consent screen, `POST /oauth/authorize` ' +
  'to grant: client id, an exact registered redirect URI, scopes, the workspace, a role, `state` and an S256 PKCE ' +
  'challenge) and gets a code valid 10 minutes, single use. The app exchanges it at `POST /oauth/token` with its ' +
  'client secret, the PKCE verifier and the identical redirect URI, and receives the installation token ' +
  '(`spa_...`, never expiring, revocable on its own).';

export function appRoutes(router: Router, ctx: AppContext): void {
  const { route, plain } = workspaceRoutes(router, ctx, ['Apps']);
  const userId = (request: Parameters<typeof requireUserPrincipal>[0]) =>
    requireUserPrincipal(request).userId;

  plain({
    method: 'GET',
    url: '/apps/scopes',
    app: 'public',
    operationId: 'listAppScopes',
    summary: 'The scopes an app can ask for, with labels',
    response: Type.Array(ScopeDescription),
    handler: async () => SCOPE_NAMES.map((scope) => ({ scope, label: APP_SCOPES[scope] })),
  });

  plain({
    method: 'POST',
    url: '/apps',
    app: 'session',
    operationId: 'createApp',
    summary: 'Register a third-party app (signed-in people only)',
    description: OAUTH_FLOW,
    body: CreateOAuthApp,
    response: OAuthAppWithSecret,
    status: 201,
    errors: ['invalid_scope', 'invalid_redirect_uri'],
    handler: (request) => service.createApp(ctx.db, userId(request), request.body),
  });

  plain({
    method: 'GET',
    url: '/apps',
    app: 'session',
    operationId: 'listApps',
    summary: 'The apps the caller registered',
    response: Type.Array(OAuthApp),
    handler: (request) => service.listApps(ctx.db, userId(request)),
  });

  plain({
    method: 'GET',
    url: '/apps/:appId',
    app: 'session',
    operationId: 'getApp',
    summary: 'One of the caller’s apps',
    description: '404 for another person’s app, as for an unknown one.',
    response: OAuthApp,
    handler: (request) => service.getApp(ctx.db, userId(request), request.params.appId),
  });

  plain({
    method: 'PATCH',
    url: '/apps/:appId',
    app: 'session',
    operationId: 'updateApp',
    summary: 'Change an app’s name, description, redirect URIs or scopes',
    body: UpdateOAuthApp,
    response: OAuthApp,
    errors: ['invalid_scope', 'invalid_redirect_uri'],
    handler: (request) =>
      service.updateApp(ctx.db, userId(request), request.params.appId, request.body),
  });

  plain({
    method: 'DELETE',
    url: '/apps/:appId',
    app: 'session',
    operationId: 'deleteApp',
    summary: 'Delete an app; its installations and their tokens go with it',
    response: NoContent,
    handler: (request) => service.deleteApp(ctx.db, userId(request), request.params.appId),
  });

  plain({
    method: 'POST',
    url: '/apps/:appId/client-secret',
    app: 'session',
    operationId: 'rotateAppClientSecret',
    summary: 'Replace the client secret (shown once); the old one stops working at once',
    response: OAuthAppWithSecret,
    handler: (request) => service.rotateClientSecret(ctx.db, userId(request), request.params.appId),
  });

  plain({
    method: 'GET',
    url: '/oauth/authorize',
    app: 'session',
    operationId: 'previewAppConsent',
    summary: 'What a consent screen shows: the app, the scopes asked for, the target workspaces',
    description:
      'Takes the standard `client_id`, `redirect_uri` and `scope` parameters. The redirect URI must match a ' +
      'registered one exactly; never redirects an API client. A browser that opens this address (an `Accept` ' +
      'with `text/html`, as the link an OAuth client sends the person to) is redirected (302) to the web app’s ' +
      'consent screen, `/app/oauth/authorize`, with the same query (`state`, `code_challenge` and the rest ' +
      'included), signed in or not; that screen reads this JSON answer.',
    querystring: ConsentQuery,
    response: ConsentPreview,
    errors: ['unknown_client', 'invalid_redirect_uri', 'invalid_scope'],
    handler: (request) => previewConsent(ctx.db, requireUserPrincipal(request), request.query),
  });

  plain({
    method: 'POST',
    url: '/oauth/authorize',
    app: 'session',
    operationId: 'grantAppConsent',
    summary: 'Consent: install an app in a workspace (admin); answers the code to redirect with',
    description:
      `${OAUTH_FLOW} The caller must be an admin or owner of the workspace (403 below, 404 outside); the role is ` +
      'at most theirs. The answer carries `redirectTo`, the redirect URI with `code` and `state` added.',
    body: Consent,
    response: ConsentResult,
    errors: [
      'insufficient_role',
      'role_above_granter',
      'unknown_client',
      'invalid_redirect_uri',
      'invalid_scope',
    ],
    // The workspace is named in the body, not the path.
    handler: (request) =>
      inTransaction(ctx.db, async (trx) => {
        const principal = requireUserPrincipal(request);
        const access = await authorizeWorkspace(
          trx,
          principal,
          request.body.workspaceId,
          'apps.manage',
        );
        return grantConsent(trx, access, request.body);
      }),
  });

  router.register(async (instance) => {
    const scoped = instance.withTypeProvider<TypeBoxTypeProvider>();
    // Stock OAuth clients post the RFC 6749 form; the JSON body works too.
    scoped.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    workspaceRoutes(scoped, ctx, ['Apps']).plain({
      method: 'POST',
      url: '/oauth/token',
      app: 'public',
      operationId: 'exchangeOAuthCode',
      summary: 'Exchange an authorization code for an app installation token',
      description:
        'Three proofs together: the client secret, the PKCE verifier and the identical redirect URI. JSON ' +
        '(`code`, `clientSecret`, `redirectUri`, `codeVerifier`, optional `clientId`) or the RFC 6749 form ' +
        '(`grant_type=authorization_code`, `code`, `redirect_uri`, `code_verifier`, the client credentials in the ' +
        'body or as HTTP Basic), so stock OAuth client libraries work. The code is consumed in the transaction ' +
        'that creates the installation, and any failed exchange burns it. Installing an app again in a workspace ' +
        'revokes its earlier installation there. Answers `access_token` (`spa_...`), `token_type`, `scope` and ' +
        'the installation.',
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
      body: TokenRequest,
      response: TokenResponse,
      errors: ['invalid_request', 'invalid_client', 'invalid_grant'],
      handler: async (request, reply) => {
        const exchange = readExchange(request.body, request.headers.authorization);
        reply.header('cache-control', 'no-store');
        return exchangeCode(ctx.db, exchange);
      },
    });
  });

  const manage = { action: 'apps.manage', app: 'session' } as const;

  route({
    ...manage,
    method: 'GET',
    url: '/workspaces/:workspaceId/app-installations',
    operationId: 'listAppInstallations',
    summary: 'The apps installed in the workspace, revoked ones included (admin)',
    response: Type.Array(AppInstallation),
    handler: (db, access) => installations.listInstallations(db, access.workspaceId),
  });

  route({
    ...manage,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/app-installations/:installationId',
    operationId: 'revokeAppInstallation',
    summary: 'Revoke an installation (admin); its token stops working at once',
    response: NoContent,
    handler: (trx, access, request) =>
      installations.revokeInstallation(trx, access.workspaceId, request.params.installationId),
  });
}
