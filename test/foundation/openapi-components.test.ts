import { beforeAll, describe, expect, it } from 'vitest';
import { withNamedComponents } from '../../src/http/openapi-components.js';
import { useApp } from '../fixtures/app.js';
import { type ServedDescription, servedDescription, withRefsInlined } from '../helpers/openapi.js';

const t = useApp();
let document: ServedDescription;

beforeAll(async () => {
  document = await servedDescription(t.http);
});

/** Where, under `node`, an object carries a string `title` (a named schema written inline). */
function titledPlaces(node: unknown, at: string, found: string[]): string[] {
  if (node === null || typeof node !== 'object') return found;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'title' && typeof value === 'string') found.push(`${at} (${value})`);
    else titledPlaces(value, `${at}/${key}`, found);
  }
  return found;
}

describe('named schemas in the description', () => {
  it('are written once, as components, and referred to wherever they are used', () => {
    const item = document.paths['/workspaces/{workspaceId}/items/{itemId}']?.get;
    expect(item?.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ItemDetail',
    });
    expect(titledPlaces(document.paths, '#/paths', [])).toEqual([]);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const { title, ...inner } = schema;
      expect(title ?? name).toBe(name);
      expect(titledPlaces(inner, `#/components/schemas/${name}`, [])).toEqual([]);
    }
    expect(document.components.schemas.Mark).toMatchObject({ title: 'Mark' });
    expect(document.components.schemas.Uuid).toMatchObject({ format: 'uuid' });
  });

  it('refer only to what the description holds', () => {
    expect(() => withRefsInlined(document)).not.toThrow();
  });

  it('tell the variants of a tagged union apart by their tag values', () => {
    expect(document.components.schemas.Inline?.discriminator).toEqual({
      propertyName: 'type',
      mapping: {
        text: '#/components/schemas/TextNode',
        link: '#/components/schemas/LinkNode',
      },
    });
  });

  it('share the error responses that operations give alike, named by their codes', () => {
    const item = document.paths['/workspaces/{workspaceId}/items/{itemId}']?.get;
    expect(item?.responses['404']).toEqual({ $ref: '#/components/responses/not_found' });
    expect(item?.responses['5XX']).toEqual({ $ref: '#/components/responses/Error' });
    expect(document.components.responses.not_found).toEqual({
      description: '`not_found`',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('refuse two different schemas under one title, and share equal ones', () => {
    const operation = (schema: object) => ({
      get: { responses: { 200: { content: { 'application/json': { schema } } } } },
    });
    const one = { title: 'Thing', type: 'string' };
    const named = withNamedComponents({
      paths: { '/a': operation(one), '/b': operation({ ...one }) },
    });
    expect(named.components).toEqual({ schemas: { Thing: one } });
    expect(() =>
      withNamedComponents({
        paths: { '/a': operation(one), '/b': operation({ title: 'Thing', type: 'number' }) },
      }),
    ).toThrow(/two different schemas are titled "Thing"/);
  });
});
