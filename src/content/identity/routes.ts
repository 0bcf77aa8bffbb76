import Type from 'typebox';
import { setSessionCookie } from '../../accounts/routes.js';
import { Session } from '../../accounts/schemas.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { exchangeAtProvider, requireIdp, verifyIdToken } from './provider.js';
import { CallbackQuery, IdpSignIn, LinkIdp, StartQuery, UserIdentity } from './schemas.js';
import * as service from './service.js';

const STATE_COOKIE = 'idp_state';
/**
 * Where a browser goes when its return from the provider cannot be tied to
 * a sign-in it started (so there is no `returnTo` to use): the web app's
 * sign-in screen, which says why and offers to start again.
 */
const SIGN_IN_SCREEN = '/app/sign-in';

function withError(returnTo: string, code: string): string {
  const url = new URL(returnTo, 'http://return.invalid');
  url.searchParams.set('idpError', code);
  return `${url.pathname}${url.search}`;
}

export function identityRoutes(router: Router, ctx: AppContext): void {
  const secure = ctx.config.publicUrl.startsWith('https:');
  const { plain } = workspaceRoutes(router, ctx, ['Accounts']);

  plain({
    method: 'POST',
    url: '/auth/idp',
    app: 'public',
    operationId: 'signInWithIdp',
    summary: 'Sign in (or register) with an id_token from the identity provider',
    description:
      'The id_token is verified against the provider’s published keys (`IDP_ISSUER` discovery): signature, ' +
      'issuer, audience equal to `IDP_CLIENT_ID`, expiry (required) and `email_verified` (`invalid_id_token` ' +
      'with `details.reason`). A known identity opens a session (200). An unknown one creates the account (201) ' +
      'when registration is open, or with a valid invitation for the verified address. An existing account with ' +
      'that address is never linked automatically: `identity_clash` (link it from the account with ' +
      '`POST /auth/identities/idp`). `idp_disabled` when no provider is configured. Sets the `session` cookie.',
    body: IdpSignIn,
    response: Session,
    otherResponses: { 201: Session },
    errors: [
      'invalid_id_token',
      'registration_closed',
      'invitation_invalid',
      'identity_clash',
      'idp_disabled',
      'idp_unavailable',
    ],
    handler: async (request, reply) => {
      const idp = requireIdp(ctx.config.idp);
      const identity = await verifyIdToken(ctx.identityProviders, idp, request.body.idToken);
      const { session, created } = await service.signIn(
        ctx.db,
        ctx.config,
        identity,
        request.body.invitation,
      );
      setSessionCookie(reply, ctx, session.token);
      if (created) reply.code(201);
      return session;
    },
  });

  plain({
    method: 'GET',
    url: '/auth/identities',
    app: 'session',
    operationId: 'listIdentities',
    summary: 'The identity-provider accounts linked to the caller’s account',
    response: Type.Array(UserIdentity),
    handler: (request) => service.listIdentities(ctx.db, requireUserPrincipal(request).userId),
  });

  plain({
    method: 'POST',
    url: '/auth/identities/idp',
    app: 'session',
    operationId: 'linkIdpIdentity',
    summary: 'Link an identity-provider account to the signed-in account',
    description:
      'Idempotent when the identity is already the caller’s. `identity_taken` when it is another account’s, ' +
      '`identity_exists` when the account already has one from this provider. The provider’s address need not ' +
      'equal the account’s.',
    body: LinkIdp,
    response: UserIdentity,
    errors: [
      'identity_taken',
      'identity_exists',
      'invalid_id_token',
      'idp_disabled',
      'idp_unavailable',
    ],
    handler: async (request) => {
      const idp = requireIdp(ctx.config.idp);
      const identity = await verifyIdToken(ctx.identityProviders, idp, request.body.idToken);
      return service.linkIdentity(ctx.db, requireUserPrincipal(request).userId, identity);
    },
  });

  plain({
    method: 'GET',
    url: '/auth/idp/start',
    app: 'public',
    operationId: 'startIdpSignIn',
    summary: 'Browser sign-in: redirects to the identity provider',
    description:
      'Authorization code flow with PKCE (S256), a `state` bound to this browser by the `idp_state` cookie and a ' +
      '`nonce`, valid 10 minutes. The provider returns to `IDP_REDIRECT_URI` (default ' +
      '`PUBLIC_URL/api/auth/idp/callback`). `invitation` is redeemed at the end; `returnTo` is a path of this site.',
    querystring: StartQuery,
    response: Type.Null({ description: 'Redirect to the provider.' }),
    status: 302,
    errors: ['idp_disabled', 'idp_unavailable'],
    handler: async (request, reply) => {
      const idp = requireIdp(ctx.config.idp);
      const { discovery } = await ctx.identityProviders.of(idp);
      const started = await service.beginBrowserSignIn(ctx.db, request.query);
      const target = new URL(discovery.authorization_endpoint);
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: idp.clientId,
        redirect_uri: idp.redirectUri,
        scope: 'openid email profile',
        state: started.state,
        nonce: started.nonce,
        code_challenge: started.codeChallenge,
        code_challenge_method: 'S256',
      })) {
        target.searchParams.set(name, value);
      }
      reply.setCookie(STATE_COOKIE, started.state, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: 600,
      });
      return reply.redirect(target.toString(), 302);
    },
  });

  plain({
    method: 'GET',
    url: '/auth/idp/callback',
    app: 'public',
    operationId: 'finishIdpSignIn',
    summary: 'Browser sign-in: the provider’s return; sets the session cookie',
    description:
      'Checks the `state` against the `idp_state` cookie, exchanges the code at the ' +
      'provider with the PKCE verifier, verifies the id_token (nonce included) and signs in as `POST /auth/idp` ' +
      'does. Redirects (303) to `returnTo`; a refusal adds `idpError=<code>` to it. A `state` that is not ' +
      "this browser's, was used already or expired redirects to the web app's sign-in screen with " +
      '`idpError=invalid_state` (a browser landing here gets a page, never a JSON error).',
    querystring: CallbackQuery,
    response: Type.Null({ description: 'Redirect back into the site.' }),
    status: 303,
    errors: ['idp_disabled', 'idp_unavailable'],
    handler: async (request, reply) => {
      const idp = requireIdp(ctx.config.idp);
      const { state, code, error } = request.query;
      const cookie = request.cookies[STATE_COOKIE];
      if (state === undefined || cookie === undefined || cookie !== state) {
        return reply.redirect(withError(SIGN_IN_SCREEN, 'invalid_state'), 303);
      }
      const started = await service.takeBrowserSignIn(ctx.db, state).catch((failure: unknown) => {
        if (failure instanceof AppError && failure.code === 'invalid_state') return undefined;
        throw failure;
      });
      reply.clearCookie(STATE_COOKIE, { path: '/' });
      if (started === undefined)
        return reply.redirect(withError(SIGN_IN_SCREEN, 'invalid_state'), 303);
      try {
        if (error !== undefined || code === undefined) {
          throw new AppError('idp_refused', 'The identity provider did not sign you in');
        }
        const idToken = await exchangeAtProvider(
          ctx.identityProviders,
          idp,
          code,
          started.code_verifier,
        );
        const identity = await verifyIdToken(ctx.identityProviders, idp, idToken, started.nonce);
        const { session } = await service.signIn(
          ctx.db,
          ctx.config,
          identity,
          started.invitation ?? undefined,
        );
        setSessionCookie(reply, ctx, session.token);
        return reply.redirect(started.return_to, 303);
      } catch (failure) {
        if (!(failure instanceof AppError) || failure.status >= 500) throw failure;
        return reply.redirect(withError(started.return_to, failure.code), 303);
      }
    },
  });
}
