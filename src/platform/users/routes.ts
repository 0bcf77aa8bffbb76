import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { SecretInfo, SetSecretBody } from '../common/schemas.js';
import { UpdateMeBody, UserMe, UserSecretParams } from './schemas.js';
import * as service from './service.js';

const tags = ['Users'];

export function userRoutes(router: Router, ctx: AppContext): void {
  router.get('/users/me', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'getCurrentUser',
      summary: 'The signed-in account and its settings',
      response: { 200: UserMe },
    },
    handler: async (request) => service.getMe(ctx.db, requireUserPrincipal(request).userId),
  });

  router.patch('/users/me', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'updateCurrentUser',
      summary: 'Update your settings',
      description:
        'Touches only the fields sent. An empty or whitespace `dotfilesRepo` clears it to null; ' +
        '`extensions` is replaced as a whole and emptied by sending `[]`; an omitted field is never erased.',
      body: UpdateMeBody,
      response: { 200: UserMe },
    },
    handler: async (request) => {
      const { userId } = requireUserPrincipal(request);
      return inTransaction(ctx.db, (trx) => service.updateMe(trx, userId, request.body));
    },
  });

  router.get('/users/me/secrets', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listUserSecrets',
      summary: 'List your secrets',
      description: 'Names only, by name: values are never returned.',
      response: { 200: Type.Array(SecretInfo) },
    },
    handler: async (request) => service.listSecrets(ctx.db, requireUserPrincipal(request).userId),
  });

  router.post('/users/me/secrets', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'setUserSecret',
      summary: 'Create or replace one of your secrets',
      description:
        'Creates the secret (201) or replaces the value of your secret with this name (200, same id). ' +
        'The value is stored encrypted, handed only to your workers, and never returned.',
      body: SetSecretBody,
      response: { 200: SecretInfo, 201: SecretInfo },
    },
    handler: async (request, reply) => {
      const { userId } = requireUserPrincipal(request);
      const { secret, created } = await inTransaction(ctx.db, (trx) =>
        service.setSecret(trx, ctx.config, userId, request.body),
      );
      return reply.code(created ? 201 : 200).send(secret);
    },
  });

  router.delete('/users/me/secrets/:secretId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'deleteUserSecret',
      summary: 'Delete one of your secrets',
      description: "Another user's secret id is 404, like an unknown one.",
      params: UserSecretParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      const { userId } = requireUserPrincipal(request);
      await inTransaction(ctx.db, (trx) =>
        service.deleteSecret(trx, userId, request.params.secretId),
      );
      return reply.code(204).send(null);
    },
  });
}
