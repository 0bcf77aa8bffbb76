import Type, {
  type Static,
  type TLiteral,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TString,
  type TUnion,
  type TUnsafe,
} from 'typebox';
import { answers } from '../../http/schema-error-codes.js';
import { UUID_PATTERN } from '../../http/schemas.js';

/**
 * The rich body of an item, `{blocks: [...]}`: the schema is the contract.
 * Block types, the five marks and the indent range are closed lists; a
 * violation answers 400 with the code the schema names (`unknown_block_type`,
 * `unknown_mark`, `invalid_indent`, else `invalid_block`). What a schema
 * cannot say (link targets, normalisation) is in `blocks.ts`.
 */

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export const MAX_INDENT = 6;
export const MAX_BLOCKS = 5000;

/** A `oneOf` whose variants are told apart by their `type`, as OpenAPI's discriminator. */
function tagged<T extends TSchema[]>(
  variants: [...T],
  options: Record<string, unknown>,
): TUnsafe<Static<TUnion<T>>> {
  return Type.Unsafe<Static<TUnion<T>>>({
    ...options,
    oneOf: variants,
    discriminator: { propertyName: 'type' },
  });
}

export const Mark = Type.Enum(MARKS, { title: 'Mark', ...answers('unknown_mark') });
export type Mark = Static<typeof Mark>;

export const TextNode = Type.Object(
  {
    type: Type.Literal('text'),
    text: Type.String({ maxLength: 100_000 }),
    marks: Type.Optional(
      Type.Array(Mark, { description: 'A mark named twice counts once; none is plain text.' }),
    ),
  },
  { title: 'TextNode', description: 'A run of text with its marks.', additionalProperties: false },
);
export type TextNode = Static<typeof TextNode>;

export const LinkNode = Type.Object(
  {
    type: Type.Literal('link'),
    href: Type.String({
      maxLength: 2048,
      description: 'An absolute http, https or mailto URL; anything else is `invalid_link`.',
    }),
    content: Type.Array(TextNode),
  },
  { title: 'LinkNode', additionalProperties: false },
);
export type LinkNode = Static<typeof LinkNode>;

export const Inline = tagged([TextNode, LinkNode], { title: 'Inline' });
export type Inline = Static<typeof Inline>;

const Inlines = Type.Array(Inline);
const Indent = Type.Integer({
  minimum: 0,
  maximum: MAX_INDENT,
  description: 'Nesting level; 0 is stored as absent.',
  ...answers('invalid_indent'),
});

type BlockShape<K extends string, P extends TProperties> = TObject<
  { type: TLiteral<K>; id: TOptional<TString> } & P
>;

function block<K extends string, P extends TProperties>(
  type: K,
  title: string,
  properties: P,
): BlockShape<K, P> {
  return Type.Object(
    {
      type: Type.Literal(type),
      id: Type.Optional(Type.String({ maxLength: 64, description: 'A client id, kept as sent.' })),
      ...properties,
    },
    { title, additionalProperties: false, ...answers('invalid_block') },
  );
}

const text = { content: Type.Optional(Inlines) };
const indented = { ...text, indent: Type.Optional(Indent) };

export const Block = tagged(
  [
    block('paragraph', 'ParagraphBlock', indented),
    block('heading1', 'Heading1Block', text),
    block('heading2', 'Heading2Block', text),
    block('heading3', 'Heading3Block', text),
    block('bulleted_list', 'BulletedListBlock', indented),
    block('numbered_list', 'NumberedListBlock', indented),
    block('todo', 'TodoBlock', { ...indented, checked: Type.Optional(Type.Boolean()) }),
    block('quote', 'QuoteBlock', indented),
    block('code', 'CodeBlock', {
      text: Type.Optional(Type.String({ maxLength: 1_000_000 })),
      language: Type.Optional(Type.String({ maxLength: 40 })),
    }),
    block('divider', 'DividerBlock', {}),
    block('image', 'ImageBlock', {
      fileId: Type.String({
        format: 'uuid',
        pattern: UUID_PATTERN,
        description: 'An image file of the workspace.',
      }),
      caption: Type.Optional(Inlines),
    }),
    block('callout', 'CalloutBlock', {
      ...indented,
      icon: Type.Optional(Type.String({ maxLength: 16 })),
    }),
  ],
  { title: 'Block', ...answers('unknown_block_type') },
);
export type Block = Static<typeof Block>;
export type BlockType = Block['type'];

export const BlockDocument = Type.Object(
  { blocks: Type.Array(Block, { maxItems: MAX_BLOCKS }) },
  {
    title: 'BlockDocument',
    description: 'The body as blocks; every block may carry a client `id`.',
    additionalProperties: false,
    ...answers('invalid_block'),
  },
);
export type BlockDocument = Static<typeof BlockDocument>;
