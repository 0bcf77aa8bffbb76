import Type, { type Static } from 'typebox';
import { Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { Field } from '../fields/schemas.js';
import { Status } from '../statuses/schemas.js';
import { CollectionView } from '../views/schemas.js';

export const KeyPrefix = Type.String({
  pattern: '^[A-Z][A-Z0-9]{0,9}$',
  description:
    '1 to 10 uppercase letters and digits, starting with a letter; unique in the workspace. Item keys read `PREFIX-12`.',
});

const FieldIds = Type.Array(Uuid, {
  maxItems: 500,
  uniqueItems: true,
  description: 'The registry fields the collection displays, in order; replaced as a whole.',
});

export const Collection = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    keyPrefix: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    icon: Type.Union([Type.String(), Type.Null()]),
    fieldIds: Type.Array(Uuid),
    groupId: Type.Union([Uuid, Type.Null()], {
      description: 'The sidebar group the list sits in, if any.',
    }),
    position: Type.Integer({ description: 'Order in the sidebar; see `PUT /collections/order`.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Collection' },
);
export type Collection = Static<typeof Collection>;

export const CollectionDetail = Type.Object(
  {
    ...Collection.properties,
    fields: Type.Array(Field, { description: 'The displayed fields, in `fieldIds` order.' }),
    statuses: Type.Array(Status, { description: 'The workspace statuses, in order.' }),
    views: Type.Array(CollectionView),
  },
  { title: 'CollectionDetail' },
);
export type CollectionDetail = Static<typeof CollectionDetail>;

const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);
const Icon = Type.Union([Type.String({ maxLength: 64 }), Type.Null()]);

export const CreateCollection = Strict(
  {
    name: Name(100),
    keyPrefix: KeyPrefix,
    fieldIds: Type.Optional(FieldIds),
    groupId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    description: Type.Optional(Description),
    icon: Type.Optional(Icon),
  },
  { title: 'CreateCollection', description: 'A new list goes last in the sidebar.' },
);
export type CreateCollection = Static<typeof CreateCollection>;

export const UpdateCollection = Strict(
  {
    name: Type.Optional(Name(100)),
    keyPrefix: Type.Optional(KeyPrefix),
    fieldIds: Type.Optional(FieldIds),
    description: Type.Optional(Description),
    icon: Type.Optional(Icon),
  },
  {
    title: 'UpdateCollection',
    description:
      'Changing the key prefix changes the readable key of every item whose home this list is.',
  },
);
export type UpdateCollection = Static<typeof UpdateCollection>;

export const ReorderCollections = Strict(
  {
    collections: Type.Array(Strict({ id: Uuid, groupId: Type.Union([Uuid, Type.Null()]) }), {
      minItems: 1,
      maxItems: 1000,
      description:
        'The cited lists in their new order: each gets position 0 to n-1 by its index and the group given. ' +
        'Lists not cited keep their group and position.',
    }),
  },
  { title: 'ReorderCollections' },
);
export type ReorderCollections = Static<typeof ReorderCollections>;

export const CollectionGroup = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    position: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'CollectionGroup' },
);
export type CollectionGroup = Static<typeof CollectionGroup>;

export const CreateCollectionGroup = Strict(
  { name: Name(100) },
  { title: 'CreateCollectionGroup' },
);
export const UpdateCollectionGroup = Strict(
  { name: Name(100) },
  { title: 'UpdateCollectionGroup' },
);
export const ReorderCollectionGroups = Strict(
  {
    groupIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: 500,
      description: 'Every group of the workspace, once each, in the new order.',
    }),
  },
  { title: 'ReorderCollectionGroups' },
);
