import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { answers, ERROR_CODE_KEYWORD } from './schema-error-codes.js';
import { bodyValidator } from './validation.js';

const Shape = Type.Object(
  {
    name: Type.String({ maxLength: 3 }),
    level: Type.Optional(Type.Integer({ maximum: 2, ...answers('invalid_indent') })),
    // A code of another status than 400 is not a validation answer: ignored.
    other: Type.Optional(Type.String({ [ERROR_CODE_KEYWORD]: 'not_found' })),
    item: Type.Optional(
      Type.Unsafe({
        oneOf: [
          Type.Object({ type: Type.Literal('a'), size: Type.Optional(Type.Integer()) }),
          Type.Object(
            { type: Type.Literal('b') },
            { additionalProperties: false, ...answers('unknown_mark') },
          ),
        ],
        discriminator: { propertyName: 'type' },
        ...answers('unknown_block_type'),
      }),
    ),
  },
  { additionalProperties: false, ...answers('invalid_block') },
);

const plain = Type.Object({ name: Type.String() });

function firstError(schema: Parameters<typeof bodyValidator>[0], value: unknown) {
  const check = bodyValidator(schema);
  expect(check(value)).toBe(false);
  return check.errors?.[0];
}

describe('error codes named by schemas', () => {
  it('passes valid values without errors', () => {
    const check = bodyValidator(Shape);
    expect(check({ name: 'abc', level: 1, item: { type: 'a', size: 2 } })).toBe(true);
    expect(check.errors).toBeNull();
  });

  it('gives the code of the innermost schema that names one', () => {
    expect(firstError(Shape, { name: 'abcd' })).toMatchObject({
      code: 'invalid_block',
      instancePath: '/name',
    });
    expect(firstError(Shape, { name: 'a', level: 3 })).toMatchObject({
      code: 'invalid_indent',
      instancePath: '/level',
    });
    expect(firstError(Shape, { name: 'a', item: { type: 'a', size: 'x' } })).toMatchObject({
      code: 'unknown_block_type',
      instancePath: '/item/size',
    });
    expect(firstError(Shape, { name: 'a', item: { type: 'b', x: 1 } })).toMatchObject({
      code: 'unknown_mark',
    });
  });

  it('ignores codes of another status, and schemas that name none', () => {
    expect(firstError(Shape, { name: 'a', other: 1 })).toMatchObject({ code: 'invalid_block' });
    expect(firstError(plain, { name: 1 })?.code).toBeUndefined();
  });

  it('checks only the variant the tag names, and lists the tags when it names none', () => {
    expect(firstError(Shape, { name: 'a', item: { type: 'c' } })).toMatchObject({
      keyword: 'discriminator',
      code: 'unknown_block_type',
      instancePath: '/item',
      params: { tag: 'type', tagValue: 'c', allowedValues: ['a', 'b'] },
    });
  });
});
