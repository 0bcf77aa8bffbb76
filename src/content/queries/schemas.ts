import Type, { type Static } from 'typebox';
import { Strict } from '../../http/schemas.js';
import { Item } from '../items/schemas.js';
import { ViewDefinition } from '../views/schemas.js';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;
export const MAX_GROUPS = 50;

const Limit = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: PAGE_MAX,
    description: `Page size: default ${PAGE_DEFAULT}, at most ${PAGE_MAX}.`,
  }),
);
const Cursor = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'Opaque; from `nextCursor` of the same query.',
});

export const QueryView = Strict(
  { definition: ViewDefinition, cursor: Type.Optional(Cursor), limit: Limit },
  {
    title: 'QueryView',
    description:
      'One keyset page of the cards of a list (home and attached), archived cards excluded. Without a sort, manual ' +
      'order; sorts put nulls last and break ties by manual order then id. A cursor only works with the definition ' +
      'and list it was issued for.',
  },
);
export type QueryView = Static<typeof QueryView>;

export const ItemPage = Type.Object(
  { items: Type.Array(Item), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { title: 'ItemPage' },
);
export type ItemPage = Static<typeof ItemPage>;

export const GroupValue = Type.Union(
  [Type.String({ maxLength: 100 }), Type.Boolean(), Type.Null()],
  {
    description:
      'A status, option, user or item id; a `YYYY-MM-DD` day; true or false; null is the empty group.',
  },
);
export type GroupValue = Static<typeof GroupValue>;

export const ViewRequest = Strict({ definition: ViewDefinition }, { title: 'ViewRequest' });

export const GroupCount = Type.Object(
  { value: GroupValue, count: Type.Integer() },
  { title: 'GroupCount' },
);

export const GroupedQuery = Strict(
  {
    definition: ViewDefinition,
    groups: Type.Array(GroupValue, {
      minItems: 1,
      maxItems: MAX_GROUPS,
      description: 'The columns (or days) to fill, in order.',
    }),
    cursors: Type.Optional(
      Type.Record(Type.String(), Cursor, {
        description:
          'Per group, keyed by the group value as text (`null`, `true`, `false` for those values).',
      }),
    ),
    limit: Limit,
  },
  { title: 'GroupedQuery' },
);
export type GroupedQuery = Static<typeof GroupedQuery>;

export const GroupedPage = Type.Object(
  {
    groups: Type.Array(
      Type.Object({
        value: GroupValue,
        count: Type.Integer(),
        items: Type.Array(Item),
        nextCursor: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  },
  { title: 'GroupedPage' },
);
export type GroupedPage = Static<typeof GroupedPage>;
