import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { listFields } from './registry.js';
import { CreateField, Field, UpdateField, UpsertFieldOption } from './schemas.js';
import * as service from './service.js';

const tags = ['Fields'];
const FieldParams = IdParams('workspaceId', 'fieldId');

export function fieldRoutes(router: Router, ctx: AppContext): void {
  router.get('/workspaces/:workspaceId/fields', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listFields',
      summary: 'The field registry, oldest first',
      params: IdParams('workspaceId'),
      response: { 200: Type.Array(Field) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        listFields(db, access.workspaceId),
      ),
  });

  router.post('/workspaces/:workspaceId/fields', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createField',
      summary: 'Add a field to the registry (admin)',
      description:
        '400 `validation_failed` for an invalid key, 400 `key_taken` for a key already used.',
      params: IdParams('workspaceId'),
      body: CreateField,
      response: { 201: Field },
    },
    handler: async (request, reply) => {
      const field = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.createField(trx, access, request.body),
      );
      return reply.code(201).send(field);
    },
  });

  router.get('/workspaces/:workspaceId/fields/:fieldId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getField',
      summary: 'A field',
      params: FieldParams,
      response: { 200: Field },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        service.getField(db, access.workspaceId, request.params.fieldId),
      ),
  });

  router.patch('/workspaces/:workspaceId/fields/:fieldId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateField',
      summary: 'Rename or reconfigure a field (admin)',
      params: FieldParams,
      body: UpdateField,
      response: { 200: Field },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.updateField(trx, access, request.params.fieldId, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId/fields/:fieldId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteField',
      summary: 'Delete a field (admin)',
      description:
        '409 `field_in_use` (details list the views) while a saved view uses it. Otherwise its key is removed from ' +
        'every item and its id from every list, each logged, under one batch id.',
      params: FieldParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.deleteField(trx, access, request.params.fieldId),
      );
      return reply.code(204).send(null);
    },
  });

  router.post('/workspaces/:workspaceId/fields/:fieldId/options', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'upsertFieldOption',
      summary: 'Add an option or change its color (admin)',
      description:
        'Merged on the server under a lock, so concurrent additions all land. 400 `field_has_no_options` for a field ' +
        'that is not select or multi_select, 400 `too_many_options` at 200.',
      params: FieldParams,
      body: UpsertFieldOption,
      response: { 200: Field },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.upsertOption(trx, access, request.params.fieldId, request.body),
      ),
  });
}
