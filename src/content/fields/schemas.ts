import Type, { type Static } from 'typebox';
import { Color, Name, Strict, Timestamp, Uuid } from '../../http/schemas.js';

export const FIELD_TYPES = [
  'text',
  'number',
  'select',
  'multi_select',
  'person',
  'multi_person',
  'date',
  'checkbox',
  'url',
  'email',
  'file',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const MAX_OPTIONS = 200;

export const FIELD_KEY_PATTERN = '^[a-z][a-z0-9_]{0,39}$';

export const FieldTypeSchema = Type.Enum(FIELD_TYPES, {
  description:
    'Values on items: `text` string; `number` number; `select` option id; `multi_select` array of option ids; ' +
    '`person` user id; `multi_person` array of user ids; `date` `YYYY-MM-DD` or an ISO 8601 date-time; ' +
    '`checkbox` boolean; `url` absolute http, https or mailto URL; `email` address; `file` file id of the workspace.',
});

export const SelectOption = Type.Object({
  id: Type.String({ description: 'Stable; referenced by item values and view filters.' }),
  label: Type.String(),
  color: Type.String(),
});
export type SelectOption = Static<typeof SelectOption>;

/** Stored config: `options` for select fields, `decimals` for numbers, `includeTime` for dates. */
export const FieldConfigSchema = Type.Object(
  {
    options: Type.Optional(Type.Array(SelectOption)),
    decimals: Type.Optional(Type.Integer()),
    includeTime: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type FieldConfig = Static<typeof FieldConfigSchema>;

export const Field = Type.Object(
  {
    id: Uuid,
    key: Type.String({ description: 'The property name on items; never changes.' }),
    type: FieldTypeSchema,
    name: Type.String(),
    config: FieldConfigSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Field' },
);
export type Field = Static<typeof Field>;

const OptionInput = Strict({
  id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Keep an existing option (its id).' }),
  ),
  label: Name(100),
  color: Color,
});

const ConfigInput = Strict(
  {
    options: Type.Optional(
      Type.Array(OptionInput, {
        maxItems: MAX_OPTIONS,
        description: `select and multi_select only: the ordered options (at most ${MAX_OPTIONS}). Options without an id are new.`,
      }),
    ),
    decimals: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'number only.' })),
    includeTime: Type.Optional(Type.Boolean({ description: 'date only.' })),
  },
  { description: 'Keys other than those of the field’s type are refused (400 `invalid_config`).' },
);
export type ConfigInput = Static<typeof ConfigInput>;

export const CreateField = Strict(
  {
    key: Type.String({
      pattern: FIELD_KEY_PATTERN,
      description:
        '1 to 40 characters: a lowercase letter, then lowercase letters, digits or `_`. Unique in the workspace.',
    }),
    type: FieldTypeSchema,
    name: Name(100),
    config: Type.Optional(ConfigInput),
  },
  { title: 'CreateField' },
);
export type CreateField = Static<typeof CreateField>;

export const UpdateField = Strict(
  { name: Type.Optional(Name(100)), config: Type.Optional(ConfigInput) },
  {
    title: 'UpdateField',
    description:
      'Key and type never change. `config` is replaced as a whole; options left out are removed and their values ' +
      'are removed from items (logged as `item.updated`).',
  },
);
export type UpdateField = Static<typeof UpdateField>;

export const UpsertFieldOption = Strict(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Target an option by id.' }),
    ),
    label: Name(100),
    color: Color,
  },
  {
    title: 'UpsertFieldOption',
    description:
      'Adds the option at the end, or changes the color of the option with this label (case-insensitive; ' +
      'its label stays as stored) or with this `id` (which also renames it to `label`). ' +
      'An option already declared with the same color writes nothing and logs nothing: ' +
      '`URGENT` sent in the color of an existing `Urgent` leaves the field as it is.',
  },
);
export type UpsertFieldOption = Static<typeof UpsertFieldOption>;
