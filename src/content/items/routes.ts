import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { duplicateItem, MAX_DUPLICATE } from './duplicate.js';
import {
  AttachItem,
  CreateItem,
  ItemDetail,
  ItemIdOrKeyParams,
  MoveItem,
  UpdateItem,
} from './schemas.js';
import * as service from './service.js';
import { attachItem, detachItem, moveItem } from './structure.js';

/** What a card's properties and body can be refused for. */
const CONTENT_ERRORS = [
  'invalid_status',
  'invalid_parent',
  'invalid_after_item',
  'unknown_property',
  'invalid_property_value',
  'option_not_declared',
  'not_a_member',
  'unknown_file',
  'invalid_url',
  'invalid_email',
  'invalid_block',
  'unknown_block_type',
  'unknown_mark',
  'invalid_indent',
  'invalid_link',
  'blocks_and_body',
] as const;

export function itemRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Items']);
  const write = { action: 'items.write', app: ['items:write'] } as const;

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/items',
    operationId: 'createItem',
    registry: 'shared',
    summary: 'Create a card in a list (its home list)',
    description:
      'The card gets the next number of the workspace (never reused) and the key `PREFIX-number`. ' +
      'Nothing is written when a status, parent, order, property or the body is refused.',
    body: CreateItem,
    response: ItemDetail,
    status: 201,
    errors: CONTENT_ERRORS,
    handler: (trx, access, request) =>
      service.createItem(trx, access, request.params.collectionId, request.body),
  });

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/items/:itemId',
    action: 'items.read',
    app: ['items:read'],
    operationId: 'getItem',
    summary: 'A card with its body, by its id or its key',
    description:
      'The card is named by its id or by its key as people write it (`ENG-12`, the prefix in any case), ' +
      'so that a link such as `/app/{workspace}/ENG-12` can be opened. A key names the card whose home ' +
      'list has that prefix now: after a move to another list, the old key answers 404. Only this read ' +
      'takes a key; the writes name the card by the `id` it answers.',
    params: ItemIdOrKeyParams,
    response: ItemDetail,
    handler: (db, access, request) =>
      service.getItemByIdOrKey(db, access.workspaceId, request.params.itemId),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/items/:itemId',
    operationId: 'updateItem',
    registry: 'shared',
    summary: 'Change a card; archive or restore it',
    description:
      'Archived cards leave every view and search; PATCH `{"archived": false}` restores one. Sub-items are not ' +
      'archived with their parent.',
    body: UpdateItem,
    response: ItemDetail,
    errors: [...CONTENT_ERRORS, 'empty_patch'],
    handler: (trx, access, request) =>
      service.updateItem(trx, access, request.params.itemId, request.body),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/items/:itemId',
    operationId: 'deleteItem',
    summary: 'Delete a card and its sub-items, permanently',
    response: NoContent,
    handler: (trx, access, request) => service.deleteItem(trx, access, request.params.itemId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/items/:itemId/move',
    operationId: 'moveItem',
    summary: 'Move a card: home list, parent, place in manual order',
    body: MoveItem,
    response: ItemDetail,
    errors: ['invalid_parent', 'invalid_after_item', 'unknown_collection'],
    handler: (trx, access, request) => moveItem(trx, access, request.params.itemId, request.body),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/items/:itemId/collections',
    operationId: 'attachItem',
    summary: 'Attach a card to a secondary list',
    description: 'Idempotent. The home list and key never change this way.',
    body: AttachItem,
    response: ItemDetail,
    errors: ['already_home'],
    handler: (trx, access, request) =>
      attachItem(trx, access, request.params.itemId, request.body.collectionId),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/items/:itemId/collections/:collectionId',
    operationId: 'detachItem',
    summary: 'Detach a card from a secondary list',
    description: '404 when the card is not attached there.',
    response: NoContent,
    errors: ['cannot_detach_home'],
    handler: (trx, access, request) =>
      detachItem(trx, access, request.params.itemId, request.params.collectionId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/items/:itemId/duplicate',
    operationId: 'duplicateItem',
    registry: 'shared',
    summary: 'Duplicate a card with its sub-items',
    description:
      `No body. Copies the card right after the original with its sub-items (at most ${MAX_DUPLICATE} cards; ` +
      'archived sub-items skipped); the title takes a copy suffix in the language of ' +
      '`Accept-Language` (" (copy)" by default). One `item.created` per copy; the root’s carries `duplicatedFrom`.',
    headers: Type.Object({ 'accept-language': Type.Optional(Type.String({ maxLength: 200 })) }),
    response: ItemDetail,
    status: 201,
    errors: ['subtree_too_large'],
    handler: (trx, access, request) =>
      duplicateItem(trx, access, request.params.itemId, request.headers['accept-language']),
  });
}
