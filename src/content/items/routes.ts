import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { duplicateItem, MAX_DUPLICATE } from './duplicate.js';
import { AttachItem, CreateItem, ItemDetail, MoveItem, UpdateItem } from './schemas.js';
import * as service from './service.js';
import { attachItem, detachItem, moveItem } from './structure.js';

const tags = ['Items'];
const ItemParams = IdParams('workspaceId', 'itemId');

export function itemRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/collections/:collectionId/items', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createItem',
      summary: 'Create a card in a list (its home list)',
      description:
        'The card gets the next number of the workspace (never reused) and the key `PREFIX-number`. 400 for an ' +
        'invalid status (`invalid_status`), parent (`invalid_parent`), order (`invalid_after_item`), body or property ' +
        '(`unknown_property`, `invalid_property_value`, `option_not_declared`, `not_a_member`, `unknown_file`, ' +
        '`invalid_url`, `invalid_email`); nothing is written then.',
      params: IdParams('workspaceId', 'collectionId'),
      body: CreateItem,
      response: { 201: ItemDetail },
    },
    handler: async (request, reply) => {
      const item = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'items.write',
        (trx, access) => service.createItem(trx, access, request.params.collectionId, request.body),
      );
      return reply.code(201).send(item);
    },
  });

  router.get('/workspaces/:workspaceId/items/:itemId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getItem',
      summary: 'A card with its body',
      params: ItemParams,
      response: { 200: ItemDetail },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        service.getItem(db, access.workspaceId, request.params.itemId),
      ),
  });

  router.patch('/workspaces/:workspaceId/items/:itemId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateItem',
      summary: 'Change a card; archive or restore it',
      description:
        'Archived cards leave every view and search; PATCH `{"archived": false}` restores one. Sub-items are not ' +
        'archived with their parent.',
      params: ItemParams,
      body: UpdateItem,
      response: { 200: ItemDetail },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'items.write', (trx, access) =>
        service.updateItem(trx, access, request.params.itemId, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId/items/:itemId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteItem',
      summary: 'Delete a card and its sub-items, permanently',
      params: ItemParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'items.write',
        (trx, access) => service.deleteItem(trx, access, request.params.itemId),
      );
      return reply.code(204).send(null);
    },
  });

  router.post('/workspaces/:workspaceId/items/:itemId/move', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'moveItem',
      summary: 'Move a card: home list, parent, place in manual order',
      params: ItemParams,
      body: MoveItem,
      response: { 200: ItemDetail },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'items.write', (trx, access) =>
        moveItem(trx, access, request.params.itemId, request.body),
      ),
  });

  router.post('/workspaces/:workspaceId/items/:itemId/collections', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'attachItem',
      summary: 'Attach a card to a secondary list',
      description:
        'Idempotent. The home list and key never change this way (400 `already_home` for the home list).',
      params: ItemParams,
      body: AttachItem,
      response: { 200: ItemDetail },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'items.write', (trx, access) =>
        attachItem(trx, access, request.params.itemId, request.body.collectionId),
      ),
  });

  router.delete('/workspaces/:workspaceId/items/:itemId/collections/:collectionId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'detachItem',
      summary: 'Detach a card from a secondary list',
      description:
        '404 when the card is not attached there; 400 `cannot_detach_home` for its home list.',
      params: IdParams('workspaceId', 'itemId', 'collectionId'),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'items.write',
        (trx, access) =>
          detachItem(trx, access, request.params.itemId, request.params.collectionId),
      );
      return reply.code(204).send(null);
    },
  });

  router.post('/workspaces/:workspaceId/items/:itemId/duplicate', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'duplicateItem',
      summary: 'Duplicate a card with its sub-items',
      description:
        `No body. Copies the card right after the original with its sub-items (at most ${MAX_DUPLICATE} cards, 400 ` +
        '`subtree_too_large`; archived sub-items skipped); the title takes a copy suffix in the language of ' +
        '`Accept-Language` (" (copy)" by default). One `item.created` per copy; the root’s carries `duplicatedFrom`.',
      params: ItemParams,
      headers: Type.Object({ 'accept-language': Type.Optional(Type.String({ maxLength: 200 })) }),
      response: { 201: ItemDetail },
    },
    handler: async (request, reply) => {
      const copy = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'items.write',
        (trx, access) =>
          duplicateItem(trx, access, request.params.itemId, request.headers['accept-language']),
      );
      return reply.code(201).send(copy);
    },
  });
}
