import type { FastifyReply } from 'fastify';
import { readCredential, requireUserPrincipal, SESSION_COOKIE } from '../../http/auth.js';
import { unauthorized } from '../../http/errors.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { AuthUser, LoginBody, RegisterBody, RegistrationPolicy, Session } from './schemas.js';
import * as service from './service.js';

const tags = ['Accounts'];

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
  router.get('/auth/registration', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'getRegistrationPolicy',
      summary: 'How new accounts can be created on this instance',
      response: { 200: RegistrationPolicy },
    },
    handler: async () => service.registrationPolicy(ctx.config),
  });

  router.post('/auth/register', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'register',
      summary: 'Create an account with e-mail and password',
      description:
        'Open when the instance runs with `REGISTRATION_MODE=open` (403 `registration_closed` otherwise), or with a ' +
        'valid invitation for this address (403 `invitation_invalid` for an unknown, expired, revoked, used or ' +
        'other-address invitation). ' +
        'E-mails compare case-insensitively (409 `email_taken`). Sets the `session` cookie.',
      body: RegisterBody,
      response: { 201: Session },
    },
    handler: async (request, reply) => {
      const session = await service.register(ctx.db, ctx.config, request.body);
      setSessionCookie(reply, ctx, session.token);
      return reply.code(201).send(session);
    },
  });

  router.post('/auth/login', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'login',
      summary: 'Open a session with e-mail and password',
      description:
        'Answers 401 `invalid_credentials` with the same message and timing whether or not the e-mail exists. Sets the `session` cookie.',
      body: LoginBody,
      response: { 200: Session },
    },
    handler: async (request, reply) => {
      const session = await service.login(ctx.db, ctx.config, request.body);
      setSessionCookie(reply, ctx, session.token);
      return session;
    },
  });

  router.post('/auth/logout', {
    // The session is read here rather than by the auth hook so that logging
    // out of an already revoked session succeeds again (logout is idempotent).
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'logout',
      summary: 'Revoke the current session',
      description:
        'Revokes the session of the bearer token or `session` cookie and clears the cookie. ' +
        'Idempotent: a session token already revoked answers 204 again; no token or an unknown one is 401.',
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      const token = readCredential(request);
      if (token === null) throw unauthorized('unauthenticated', 'Authentication required');
      if (!token.startsWith(service.SESSION_TOKEN_PREFIX)) {
        throw unauthorized('invalid_token', 'The token is not a session token');
      }
      await service.logout(ctx.db, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  });

  router.get('/auth/me', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'getMe',
      summary: 'The signed-in account',
      response: { 200: AuthUser },
    },
    handler: async (request) => {
      const principal = requireUserPrincipal(request);
      return service.getUser(ctx.db, principal.userId);
    },
  });
}
