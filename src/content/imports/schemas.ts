import Type, { type Static } from 'typebox';
import { Strict, Uuid } from '../../http/schemas.js';
import { KeyPrefix } from '../collections/schemas.js';
import { BlockDocument } from '../items/block-schemas.js';
import { Properties } from '../items/schemas.js';

export const MAX_IMPORT_ITEMS = 500;
export const MAX_IMPORT_COLLECTIONS = 100;
export const MAX_IMPORT_FILES = 100;

const ExternalSource = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The system the record comes from, such as `trello`.',
});
const ExternalId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The record’s id in that system. The pair is unique per kind in the workspace.',
});

const Reference = Type.Union(
  [
    Strict({ id: Uuid }),
    Strict({ externalSource: Type.Optional(ExternalSource), externalId: ExternalId }),
  ],
  {
    description:
      '`{id}` of an existing record, or `{externalSource?, externalId}` of one imported in this batch or an ' +
      'earlier one (`externalSource` defaults to the referring record’s).',
  },
);
export type Reference = Static<typeof Reference>;

export const ImportCollection = Strict(
  {
    externalSource: ExternalSource,
    externalId: ExternalId,
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    keyPrefix: KeyPrefix,
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    icon: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    fieldIds: Type.Optional(Type.Array(Uuid, { maxItems: 500, uniqueItems: true })),
  },
  { title: 'ImportCollection' },
);
export type ImportCollection = Static<typeof ImportCollection>;

export const ImportFile = Strict(
  {
    externalSource: ExternalSource,
    externalId: ExternalId,
    name: Type.String({ minLength: 1, maxLength: 255 }),
    contentBase64: Type.String({
      description:
        'The bytes, base64-encoded; at most `MAX_UPLOAD_BYTES` decoded. The type is sniffed from them.',
    }),
  },
  { title: 'ImportFile' },
);
export type ImportFile = Static<typeof ImportFile>;

export const ImportItem = Strict(
  {
    externalSource: ExternalSource,
    externalId: ExternalId,
    collection: Reference,
    parent: Type.Optional(Type.Union([Reference, Type.Null()])),
    title: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    body: Type.Optional(Type.String({ maxLength: 500_000 })),
    blocks: Type.Optional(BlockDocument),
    statusId: Type.Optional(Uuid),
    properties: Type.Optional(Properties),
    icon: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
    archived: Type.Optional(Type.Boolean()),
  },
  {
    title: 'ImportItem',
    description:
      'Fields left out keep their value on an update (a new item gets the defaults). `properties` merge like a ' +
      'PATCH. A `file` property may name an imported file as `{externalSource?, externalId}`.',
  },
);
export type ImportItem = Static<typeof ImportItem>;

export const ImportRequest = Strict(
  {
    batchId: Type.Optional(Uuid),
    collections: Type.Optional(Type.Array(ImportCollection, { maxItems: MAX_IMPORT_COLLECTIONS })),
    files: Type.Optional(Type.Array(ImportFile, { maxItems: MAX_IMPORT_FILES })),
    items: Type.Optional(Type.Array(ImportItem, { maxItems: MAX_IMPORT_ITEMS })),
  },
  {
    title: 'ImportRequest',
    description:
      `One batch: at most ${MAX_IMPORT_ITEMS} items, ${MAX_IMPORT_COLLECTIONS} collections and ${MAX_IMPORT_FILES} ` +
      'files. Omit `batchId` in the first request; send the returned one with the following requests.',
  },
);
export type ImportRequest = Static<typeof ImportRequest>;

const Counts = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
});

const Outcome = Type.Object({
  externalSource: Type.String(),
  externalId: Type.String(),
  id: Uuid,
  outcome: Type.Union([
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('unchanged'),
  ]),
});
export type Outcome = Static<typeof Outcome>;

export const ImportResult = Type.Object(
  {
    batchId: Uuid,
    collections: Counts,
    files: Counts,
    items: Counts,
    records: Type.Object(
      {
        collections: Type.Array(Outcome),
        files: Type.Array(Outcome),
        items: Type.Array(Outcome),
      },
      { description: 'Each record of the request, in order, with its id here and what happened.' },
    ),
  },
  { title: 'ImportResult' },
);
export type ImportResult = Static<typeof ImportResult>;
