import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { SecretInfo, SetSecretBody } from '../common/schemas.js';
import { UpdateMeBody, UserMe } from './schemas.js';
import * as service from './service.js';

export function userRoutes(router: Router, ctx: AppContext): void {
  const { plain } = orgRoutes(router, ctx, ['Users']);
  const me = (request: Parameters<typeof requireUserPrincipal>[0]) =>
    requireUserPrincipal(request).userId;

  plain({
    method: 'GET',
    url: '/users/me',
    key: 'session',
    operationId: 'getCurrentUser',
    summary: 'The signed-in account and its settings',
    response: UserMe,
    handler: (request) => service.getMe(ctx.db, me(request)),
  });

  plain({
    method: 'PATCH',
    url: '/users/me',
    key: 'session',
    operationId: 'updateCurrentUser',
    summary: 'Update your settings',
    description:
      'Touches only the fields sent. An empty or whitespace `dotfilesRepo` clears it to null; ' +
      '`extensions` is replaced as a whole and emptied by sending `[]`; an omitted field is never erased.',
    body: UpdateMeBody,
    response: UserMe,
    handler: (request) =>
      inTransaction(ctx.db, (trx) => service.updateMe(trx, me(request), request.body)),
  });

  plain({
    method: 'GET',
    url: '/users/me/secrets',
    key: 'session',
    operationId: 'listUserSecrets',
    summary: 'List your secrets',
    description: 'Names only, by name: values are never returned.',
    response: Type.Array(SecretInfo),
    handler: (request) => service.listSecrets(ctx.db, me(request)),
  });

  plain({
    method: 'POST',
    url: '/users/me/secrets',
    key: 'session',
    operationId: 'setUserSecret',
    summary: 'Create or replace one of your secrets',
    description:
      'Creates the secret (201) or replaces the value of your secret with this name (200, same id). ' +
      'The value is stored encrypted, handed only to your workers, and never returned.',
    body: SetSecretBody,
    response: SecretInfo,
    otherResponses: { 201: SecretInfo },
    errors: ['too_many_secrets'],
    handler: async (request, reply) => {
      const { secret, created } = await inTransaction(ctx.db, (trx) =>
        service.setSecret(trx, ctx.config, me(request), request.body),
      );
      if (created) reply.code(201);
      return secret;
    },
  });

  plain({
    method: 'DELETE',
    url: '/users/me/secrets/:secretId',
    key: 'session',
    operationId: 'deleteUserSecret',
    summary: 'Delete one of your secrets',
    description: "Another user's secret id is 404, like an unknown one.",
    response: NoContent,
    handler: (request) =>
      inTransaction(ctx.db, (trx) =>
        service.deleteSecret(trx, me(request), request.params.secretId),
      ),
  });
}
