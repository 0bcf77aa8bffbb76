import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { listFields } from './registry.js';
import { CreateField, Field, UpdateField, UpsertFieldOption } from './schemas.js';
import * as service from './service.js';

export function fieldRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Fields']);
  const read = { action: 'schema.read', app: ['schema:read'] } as const;
  const write = { action: 'schema.write', app: ['schema:write'] } as const;

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/fields',
    operationId: 'listFields',
    summary: 'The field registry, oldest first',
    response: Type.Array(Field),
    handler: (db, access) => listFields(db, access.workspaceId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/fields',
    operationId: 'createField',
    summary: 'Add a field to the registry (admin)',
    body: CreateField,
    response: Field,
    status: 201,
    errors: ['key_taken', 'invalid_config', 'duplicate_option', 'too_many_options'],
    handler: (trx, access, request) => service.createField(trx, access, request.body),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/fields/:fieldId',
    operationId: 'getField',
    summary: 'A field',
    response: Field,
    handler: (db, access, request) =>
      service.getField(db, access.workspaceId, request.params.fieldId),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/fields/:fieldId',
    operationId: 'updateField',
    registry: 'exclusive',
    summary: 'Rename or reconfigure a field (admin)',
    body: UpdateField,
    response: Field,
    errors: ['invalid_config', 'duplicate_option', 'too_many_options', 'field_in_use'],
    handler: (trx, access, request) =>
      service.updateField(trx, access, request.params.fieldId, request.body),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/fields/:fieldId',
    operationId: 'deleteField',
    registry: 'exclusive',
    summary: 'Delete a field (admin)',
    description:
      'Refused with `field_in_use` while a saved view uses it: `details.views` names each one ' +
      '(`{id, name, collectionId, collectionName}`, so a client can say which in words; `details.viewIds` ' +
      'lists their ids). Otherwise its key is ' +
      'removed from every item and its id from every list, each logged, under one batch id.',
    response: NoContent,
    errors: ['field_in_use'],
    handler: (trx, access, request) => service.deleteField(trx, access, request.params.fieldId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/fields/:fieldId/options',
    operationId: 'upsertFieldOption',
    summary: 'Add an option or change its color (admin)',
    description:
      'Merged on the server under a lock, so concurrent additions all land. At most 200 options.',
    body: UpsertFieldOption,
    response: Field,
    errors: ['field_has_no_options', 'too_many_options', 'duplicate_option'],
    handler: (trx, access, request) =>
      service.upsertOption(trx, access, request.params.fieldId, request.body),
  });
}
