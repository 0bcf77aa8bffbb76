import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { BlockDocument } from './block-schemas.js';

export const MAX_TITLE = 500;

const Title = Type.String({ minLength: 1, maxLength: MAX_TITLE, pattern: '\\S' });
const Icon = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]);

export const Properties = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Keyed by registry field `key` (never by id). Values are checked against the field type; in a PATCH, null removes a property.',
});

export const Item = Type.Object(
  {
    id: Uuid,
    key: Type.String({
      description: 'The home list’s key prefix and the number, such as `ENG-12`.',
    }),
    number: Type.Integer({ description: 'Assigned per workspace; never reused.' }),
    collectionId: Uuid,
    collectionIds: Type.Array(Uuid, { description: 'Secondary lists the item is attached to.' }),
    title: Type.String(),
    statusId: Uuid,
    parentId: Type.Union([Uuid, Type.Null()]),
    properties: Properties,
    icon: Type.Union([Type.String(), Type.Null()]),
    sortKey: Type.String({ description: 'Manual order in the home list; compare bytewise.' }),
    archived: Type.Boolean(),
    archivedAt: Type.Union([Timestamp, Type.Null()]),
    createdBy: Type.Union([Uuid, Type.Null()]),
    externalSource: Type.Union([Type.String(), Type.Null()]),
    externalId: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Item' },
);
export type Item = Static<typeof Item>;

export const ItemDetail = Type.Object(
  {
    ...Item.properties,
    blocks: BlockDocument,
    body: Type.String({ description: 'The text projection of the blocks, as Markdown.' }),
  },
  { title: 'ItemDetail' },
);
export type ItemDetail = Static<typeof ItemDetail>;

const Body = Type.String({
  maxLength: 500_000,
  description:
    'Markdown; the block document is derived from it. Send `blocks` or `body`, never both.',
});
const AfterItemId = Type.Union([Uuid, Type.Null()], {
  description:
    'Place the card right after this item of the same home list; null places it first; omitted, last.',
});

export const CreateItem = Strict(
  {
    title: Title,
    blocks: Type.Optional(BlockDocument),
    body: Type.Optional(Body),
    statusId: Type.Optional(Uuid),
    parentId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    properties: Type.Optional(Properties),
    afterItemId: Type.Optional(AfterItemId),
    icon: Type.Optional(Icon),
  },
  { title: 'CreateItem', description: 'Without `statusId`, the first status of the workspace.' },
);
export type CreateItem = Static<typeof CreateItem>;

export const UpdateItem = Strict(
  {
    title: Type.Optional(Title),
    blocks: Type.Optional(BlockDocument),
    body: Type.Optional(Body),
    statusId: Type.Optional(Uuid),
    parentId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    properties: Type.Optional(Properties),
    afterItemId: Type.Optional(AfterItemId),
    icon: Type.Optional(Icon),
    archived: Type.Optional(
      Type.Boolean({
        description: '`true` archives (sets archivedAt); `false` restores an archived item.',
      }),
    ),
  },
  {
    title: 'UpdateItem',
    description:
      '`properties` are merged: keys not named are kept, a null value removes one. A change of parent or order is ' +
      'logged as `item.moved`, other changes as `item.updated`.',
  },
);
export type UpdateItem = Static<typeof UpdateItem>;

export const MoveItem = Strict(
  {
    collectionId: Type.Optional(Uuid),
    parentId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    afterItemId: Type.Optional(AfterItemId),
  },
  {
    title: 'MoveItem',
    description:
      'A new home list (`collectionId`; the number stays, the key takes the new prefix), a new parent, a new place in ' +
      'manual order. Moving to another list without `afterItemId` places the card last there.',
  },
);
export type MoveItem = Static<typeof MoveItem>;

export const AttachItem = Strict({ collectionId: Uuid }, { title: 'AttachItem' });

/** A card's key as people write it: its home list's prefix, a dash, its number (`ENG-12`). */
export const ItemKey = Type.String({
  title: 'ItemKey',
  pattern: '^[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,17}$',
  description: 'A card key, `PREFIX-number` (the prefix in any case).',
});

/** The path of reading one card: by its id or by its key. */
export const ItemIdOrKeyParams = Strict(
  { workspaceId: Uuid, itemId: Type.Union([Uuid, ItemKey]) },
  { title: 'ItemIdOrKeyParams' },
);
