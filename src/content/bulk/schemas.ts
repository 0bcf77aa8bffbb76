import Type, { type Static } from 'typebox';
import { Strict, Uuid } from '../../http/schemas.js';
import { Properties } from '../items/schemas.js';
import { ViewDefinition } from '../views/schemas.js';

export const CONFIRM_ABOVE = 200;
export const BULK_MAX = 5000;

export const BulkPreview = Type.Object(
  {
    count: Type.Integer({ description: 'Cards the filter selects now.' }),
    confirmAbove: Type.Integer({
      description: `Above this (${CONFIRM_ABOVE}), bulk-update needs expectedCount.`,
    }),
    max: Type.Integer({ description: `Above this (${BULK_MAX}), bulk-update is refused.` }),
  },
  { title: 'BulkPreview' },
);

export const BulkPatch = Strict(
  {
    statusId: Type.Optional(Uuid),
    properties: Type.Optional(Properties),
    archived: Type.Optional(Type.Literal(true, { description: 'Archive the selected cards.' })),
  },
  { title: 'BulkPatch', description: 'Properties are merged (null removes), as in an item PATCH.' },
);
export type BulkPatch = Static<typeof BulkPatch>;

export const BulkUpdate = Strict(
  {
    definition: ViewDefinition,
    patch: BulkPatch,
    expectedCount: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: `Required above ${CONFIRM_ABOVE} cards; 409 when the selection no longer has this size.`,
      }),
    ),
  },
  { title: 'BulkUpdate' },
);
export type BulkUpdate = Static<typeof BulkUpdate>;

export const BulkResult = Type.Object(
  {
    batchId: Uuid,
    changed: Type.Integer({
      description: 'Cards whose values actually changed (one `item.updated` event each).',
    }),
  },
  { title: 'BulkResult' },
);
export type BulkResult = Static<typeof BulkResult>;
