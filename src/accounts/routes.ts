import type { FastifyReply } from 'fastify';
import { workspaceRoutes } from '../content/access/workspace-route.js';
import { readCredential, requireUserPrincipal, SESSION_COOKIE } from '../http/auth.js';
import { unauthorized } from '../http/errors.js';
import { NoContent } from '../http/schemas.js';
import type { AppContext, Router } from '../module.js';
import { AuthUser, LoginBody, RegisterBody, RegistrationPolicy, Session } from './schemas.js';
import * as service from './service.js';

/** Sets the `session` cookie that register, login and provider sign-in answer with. */
export function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl.startsWith('https:'),
    maxAge: ctx.config.sessionTtlDays * 24 * 3600,
  });
}

export function accountRoutes(router: Router, ctx: AppContext): void {
  const { plain } = workspaceRoutes(router, ctx, ['Accounts']);

  plain({
    method: 'GET',
    url: '/auth/registration',
    app: 'public',
    operationId: 'getRegistrationPolicy',
    summary: 'How new accounts can be created on this instance',
    response: RegistrationPolicy,
    handler: async () => service.registrationPolicy(ctx.config),
  });

  plain({
    method: 'POST',
    url: '/auth/register',
    app: 'public',
    operationId: 'register',
    summary: 'Create an account with e-mail and password',
    description:
      'Open when the instance runs with `REGISTRATION_MODE=open` (`registration_closed` otherwise), or with a ' +
      'valid invitation for this address (`invitation_invalid` for an unknown, expired, revoked, used or ' +
      'other-address invitation). E-mails compare case-insensitively. Sets the `session` cookie.',
    body: RegisterBody,
    response: Session,
    status: 201,
    errors: ['registration_closed', 'invitation_invalid', 'email_taken'],
    handler: async (request, reply) => {
      const session = await service.register(ctx.db, ctx.config, request.body);
      setSessionCookie(reply, ctx, session.token);
      return session;
    },
  });

  plain({
    method: 'POST',
    url: '/auth/login',
    app: 'public',
    operationId: 'login',
    summary: 'Open a session with e-mail and password',
    description:
      'Answers `invalid_credentials` with the same message and timing whether or not the e-mail exists. ' +
      'Sets the `session` cookie.',
    body: LoginBody,
    response: Session,
    errors: ['invalid_credentials'],
    handler: async (request, reply) => {
      const session = await service.login(ctx.db, ctx.config, request.body);
      setSessionCookie(reply, ctx, session.token);
      return session;
    },
  });

  plain({
    method: 'POST',
    url: '/auth/logout',
    // The session is read here rather than by the auth hook so that logging
    // out of an already revoked session succeeds again (logout is idempotent).
    app: 'public',
    operationId: 'logout',
    summary: 'Revoke the current session',
    description:
      'Revokes the session of the bearer token or `session` cookie and clears the cookie. ' +
      "By cookie, only from the service's own origin (403 `origin_not_allowed`), as every write. " +
      'Idempotent: a session token already revoked answers 204 again; no token or an unknown one is 401.',
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    // The origin is checked before the body is parsed, so that a foreign form post is refused
    // for where it comes from (403) whatever its content type, not for its body (415).
    options: {
      onRequest: async (request) => {
        readCredential(request, ctx.config.publicUrl);
      },
    },
    response: NoContent,
    errors: ['unauthenticated', 'invalid_token', 'origin_not_allowed'],
    handler: async (request, reply) => {
      const token = readCredential(request, ctx.config.publicUrl);
      if (token === null) throw unauthorized('unauthenticated', 'Authentication required');
      if (!token.startsWith(service.SESSION_TOKEN_PREFIX)) {
        throw unauthorized('invalid_token', 'The token is not a session token');
      }
      await service.logout(ctx.db, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  });

  plain({
    method: 'GET',
    url: '/auth/me',
    app: 'session',
    operationId: 'getMe',
    summary: 'The signed-in account',
    response: AuthUser,
    handler: (request) => service.getUser(ctx.db, requireUserPrincipal(request).userId),
  });
}
