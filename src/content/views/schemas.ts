import Type, { type Static } from 'typebox';
import { Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';
import { ATTRIBUTES } from '../view-compiler/definition.js';

export const ViewDefinition = Type.Record(Type.String(), Type.Unknown(), {
  title: 'ViewDefinition',
  description:
    'A filter, a sort and an optional grouping, checked against the registry (400 with `details.path` naming the place):\n\n' +
    '```json\n{"filter": {"and": [{"fieldId": "<uuid>", "op": "in", "value": ["<option id>"]},\n' +
    '  {"or": [{"attribute": "statusId", "op": "eq", "value": "<uuid>"},\n' +
    '          {"not": {"attribute": "title", "op": "contains", "value": "draft"}}]}]},\n' +
    ' "sort": [{"fieldId": "<uuid>", "direction": "desc"}, {"attribute": "number", "direction": "asc"}],\n' +
    ' "groupBy": {"attribute": "statusId"}}\n```\n\n' +
    `A condition names a registry field by \`fieldId\` (never its key) or an attribute (${ATTRIBUTES.join(', ')}). ` +
    'Operators: eq, neq, in, nin, lt, lte, gt, gte, contains, startsWith, isEmpty, isNotEmpty, hasAny, hasAll, ' +
    'hasNone, before, after, onOrBefore, onOrAfter, withinLast, withinNext ({"amount", "unit"}), and ' +
    '`{"op": "search", "value": "..."}`. At most 5 levels of and/or/not and 100 conditions. ' +
    '`groupBy` takes status, select, multi_select, person, multi_person, checkbox and date (with `timeZone`).',
});

export const ViewDisplay = Strict(
  {
    layout: Type.Optional(Type.Enum(['table', 'board', 'list', 'calendar', 'gallery'])),
    columns: Type.Optional(
      Type.Array(
        Strict({
          fieldId: Type.Optional(Uuid),
          attribute: Type.Optional(Type.Enum(ATTRIBUTES)),
          width: Type.Optional(Type.Integer({ minimum: 20, maximum: 2000 })),
          hidden: Type.Optional(Type.Boolean()),
        }),
        { maxItems: 500, description: 'Column order; each names a `fieldId` or an `attribute`.' },
      ),
    ),
    hiddenGroups: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 500,
        description: 'Group values collapsed on a board.',
      }),
    ),
  },
  {
    title: 'ViewDisplay',
    description: 'How the view is shown: layout, column order and widths, collapsed groups.',
  },
);
export type ViewDisplay = Static<typeof ViewDisplay>;

export const CollectionView = Type.Object(
  {
    id: Uuid,
    collectionId: Uuid,
    name: Type.String(),
    definition: ViewDefinition,
    display: ViewDisplay,
    position: Type.Integer(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'CollectionView' },
);
export type CollectionView = Static<typeof CollectionView>;

export const CreateCollectionView = Strict(
  { name: Name(100), definition: ViewDefinition, display: Type.Optional(ViewDisplay) },
  { title: 'CreateCollectionView' },
);
export type CreateCollectionView = Static<typeof CreateCollectionView>;

export const UpdateCollectionView = Strict(
  {
    name: Type.Optional(Name(100)),
    definition: Type.Optional(ViewDefinition),
    display: Type.Optional(ViewDisplay),
  },
  {
    title: 'UpdateCollectionView',
    description:
      '`definition` and `display` are each replaced as a block: to remove a filter, send a definition without it.',
  },
);
export type UpdateCollectionView = Static<typeof UpdateCollectionView>;
