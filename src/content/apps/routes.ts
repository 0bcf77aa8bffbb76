import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
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

const tags = ['Apps'];
const AppParams = IdParams('appId');

function person(principal: ReturnType<typeof requirePrincipal>): UserPrincipal {
  if (principal.kind !== 'user') throw forbidden('session_required', 'Only a person can do this');
  return principal;
}

const OAUTH_FLOW =
  'The flow: register an app (`POST /apps`: name, redirect URIs, scopes; client id and a client secret shown ' +
  'once). A workspace admin consents (`GET /oauth/authorize` to show the consent screen, `POST /oauth/authorize` ' +
  'to grant: client id, an exact registered redirect URI, scopes, the workspace, a role, `state` and an S256 PKCE ' +
  'challenge) and gets a code valid 10 minutes, single use. The app exchanges it at `POST /oauth/token` with its ' +
  'client secret, the PKCE verifier and the identical redirect URI, and receives the installation token ' +
  '(`spa_...`, never expiring, revocable on its own).';

export function appRoutes(router: Router, ctx: AppContext): void {
  router.get('/apps/scopes', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'listAppScopes',
      summary: 'The scopes an app can ask for, with labels',
      response: { 200: Type.Array(ScopeDescription) },
    },
    handler: async () => SCOPE_NAMES.map((scope) => ({ scope, label: APP_SCOPES[scope] })),
  });

  router.post('/apps', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createApp',
      summary: 'Register a third-party app (signed-in people only)',
      description: OAUTH_FLOW,
      body: CreateOAuthApp,
      response: { 201: OAuthAppWithSecret },
    },
    handler: async (request, reply) => {
      const app = await service.createApp(
        ctx.db,
        person(requirePrincipal(request)).userId,
        request.body,
      );
      return reply.code(201).send(app);
    },
  });

  router.get('/apps', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listApps',
      summary: 'The apps the caller registered',
      response: { 200: Type.Array(OAuthApp) },
    },
    handler: (request) => service.listApps(ctx.db, person(requirePrincipal(request)).userId),
  });

  router.get('/apps/:appId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'getApp',
      summary: 'One of the caller’s apps',
      description: '404 for another person’s app, as for an unknown one.',
      params: AppParams,
      response: { 200: OAuthApp },
    },
    handler: (request) =>
      service.getApp(ctx.db, person(requirePrincipal(request)).userId, request.params.appId),
  });

  router.patch('/apps/:appId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'updateApp',
      summary: 'Change an app’s name, description, redirect URIs or scopes',
      params: AppParams,
      body: UpdateOAuthApp,
      response: { 200: OAuthApp },
    },
    handler: (request) =>
      service.updateApp(
        ctx.db,
        person(requirePrincipal(request)).userId,
        request.params.appId,
        request.body,
      ),
  });

  router.delete('/apps/:appId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'deleteApp',
      summary: 'Delete an app; its installations and their tokens go with it',
      params: AppParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await service.deleteApp(
        ctx.db,
        person(requirePrincipal(request)).userId,
        request.params.appId,
      );
      return reply.code(204).send(null);
    },
  });

  router.post('/apps/:appId/client-secret', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'rotateAppClientSecret',
      summary: 'Replace the client secret (shown once); the old one stops working at once',
      params: AppParams,
      response: { 200: OAuthAppWithSecret },
    },
    handler: (request) =>
      service.rotateClientSecret(
        ctx.db,
        person(requirePrincipal(request)).userId,
        request.params.appId,
      ),
  });

  router.get('/oauth/authorize', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'previewAppConsent',
      summary: 'What a consent screen shows: the app, the scopes asked for, the target workspaces',
      description:
        'Takes the standard `client_id`, `redirect_uri` and `scope` parameters. 400 `invalid_client`, ' +
        '`invalid_redirect_uri` (exact match with a registered one) or `invalid_scope`; never redirects.',
      querystring: ConsentQuery,
      response: { 200: ConsentPreview },
    },
    handler: (request) => previewConsent(ctx.db, person(requirePrincipal(request)), request.query),
  });

  router.post('/oauth/authorize', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'grantAppConsent',
      summary: 'Consent: install an app in a workspace (admin); answers the code to redirect with',
      description:
        `${OAUTH_FLOW} The caller must be an admin or owner of the workspace (403 below, 404 outside); the role is ` +
        'at most theirs (403 `role_above_granter`). The answer carries `redirectTo`, the redirect URI with `code` ' +
        'and `state` added.',
      body: Consent,
      response: { 200: ConsentResult },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.body.workspaceId, 'apps.manage', (trx, access) =>
        grantConsent(trx, access, request.body),
      ),
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
    scoped.post('/oauth/token', {
      config: { access: 'public' },
      schema: {
        tags,
        operationId: 'exchangeOAuthCode',
        summary: 'Exchange an authorization code for an app installation token',
        description:
          'Three proofs together: the client secret, the PKCE verifier and the identical redirect URI. JSON ' +
          '(`code`, `clientSecret`, `redirectUri`, `codeVerifier`, optional `clientId`) or the RFC 6749 form ' +
          '(`grant_type=authorization_code`, `code`, `redirect_uri`, `code_verifier`, the client credentials in the ' +
          'body or as HTTP Basic), so stock OAuth client libraries work. 400 for a malformed request; 403 ' +
          '`invalid_client` or `invalid_grant` when a proof is refused. The code is consumed in the transaction ' +
          'that creates the installation, and any failed exchange burns it. Installing an app again in a workspace ' +
          'revokes its earlier installation there. Answers `access_token` (`spa_...`), `token_type`, `scope` and ' +
          'the installation.',
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: { 200: TokenResponse },
      },
      handler: async (request, reply) => {
        const exchange = readExchange(request.body, request.headers.authorization);
        const response = await exchangeCode(ctx.db, exchange);
        return reply.header('cache-control', 'no-store').send(response);
      },
    });
  });

  router.get('/workspaces/:workspaceId/app-installations', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listAppInstallations',
      summary: 'The apps installed in the workspace, revoked ones included (admin)',
      params: IdParams('workspaceId'),
      response: { 200: Type.Array(AppInstallation) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'apps.manage', (db, access) =>
        installations.listInstallations(db, access.workspaceId),
      ),
  });

  router.delete('/workspaces/:workspaceId/app-installations/:installationId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'revokeAppInstallation',
      summary: 'Revoke an installation (admin); its token stops working at once',
      params: IdParams('workspaceId', 'installationId'),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'apps.manage',
        (trx, access) =>
          installations.revokeInstallation(trx, access.workspaceId, request.params.installationId),
      );
      return reply.code(204).send(null);
    },
  });
}
