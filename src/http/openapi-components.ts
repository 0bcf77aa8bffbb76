/**
 * Named schemas become components of the API description. A TypeBox schema
 * is named by its `title`; wherever the description holds a titled schema,
 * it is replaced by a `$ref` to `#/components/schemas/{title}`, so each shape
 * is written once and the generated client types carry its name.
 *
 * Only the description is factored: the route schemas ajv validates stay
 * inline and unchanged. (An `$id` cannot name them there: ajv refuses a
 * schema that holds the same `$id` twice, which a shape used twice in one
 * route would.)
 */

type Json = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** A component name OpenAPI allows; other titles stay inline. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const SINGLE = [
  'items',
  'not',
  'additionalProperties',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(value: unknown, each: (schema: unknown) => unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, each(inner)]));
}

/** The schema with each subschema passed through `each` (values, examples and defaults untouched). */
function withSubschemas(schema: Json, each: (schema: unknown) => unknown): Json {
  const copy: Json = { ...schema };
  for (const key of SINGLE) if (key in copy) copy[key] = each(copy[key]);
  for (const key of LISTS) {
    const list = copy[key];
    if (Array.isArray(list)) copy[key] = list.map(each);
  }
  for (const key of MAPS) if (key in copy) copy[key] = mapValues(copy[key], each);
  return copy;
}

/** The one value a tag property allows: its `const`, or a one-value `enum` (how literals are described). */
function tagOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.const === 'string') return schema.const;
  const values = schema.enum;
  return Array.isArray(values) && values.length === 1 && typeof values[0] === 'string'
    ? values[0]
    : undefined;
}

class Components {
  readonly schemas = new Map<string, Json>();
  private readonly texts = new Map<string, string>();

  /** The schema with its titled subschemas (and itself, if titled) as references. */
  factor = (schema: unknown): unknown => {
    if (!isObject(schema)) return schema;
    const factored = this.withMapping(withSubschemas(schema, this.factor));
    const name = factored.title;
    if (typeof name !== 'string' || !COMPONENT_NAME.test(name)) return factored;
    const text = JSON.stringify(factored);
    const known = this.texts.get(name);
    if (known === undefined) {
      this.texts.set(name, text);
      this.schemas.set(name, factored);
    } else if (known !== text) {
      // Two shapes under one name would make one of them wrong in every client.
      throw new Error(`two different schemas are titled "${name}": give one another title`);
    }
    return { $ref: `${COMPONENT_PREFIX}${name}` };
  };

  /**
   * A discriminator over referenced variants names each variant's tag
   * value: without a mapping, OpenAPI reads the component's name as the tag.
   * The variants are factored before the union, so their components are known.
   */
  private withMapping(copy: Json): Json {
    const { discriminator, oneOf } = copy;
    if (!isObject(discriminator) || !Array.isArray(oneOf)) return copy;
    const property = discriminator.propertyName;
    if (typeof property !== 'string') return copy;
    const mapping: Record<string, string> = {};
    for (const variant of oneOf) {
      const ref = isObject(variant) ? variant.$ref : undefined;
      if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_PREFIX)) return copy;
      const target = this.schemas.get(ref.slice(COMPONENT_PREFIX.length));
      const properties = isObject(target?.properties) ? target.properties : {};
      const tag = tagOf(properties[property]);
      if (tag === undefined) return copy;
      mapping[tag] = ref;
    }
    return { ...copy, discriminator: { ...discriminator, mapping } };
  }
}

function factorContent(content: unknown, components: Components): unknown {
  return mapValues(content, (media) =>
    isObject(media) && 'schema' in media
      ? { ...media, schema: components.factor(media.schema) }
      : media,
  );
}

function factorOperation(operation: unknown, components: Components): unknown {
  if (!isObject(operation)) return operation;
  const copy: Json = { ...operation };
  if (Array.isArray(copy.parameters)) {
    copy.parameters = copy.parameters.map((parameter: unknown) =>
      isObject(parameter) && 'schema' in parameter
        ? { ...parameter, schema: components.factor(parameter.schema) }
        : parameter,
    );
  }
  if (isObject(copy.requestBody)) {
    copy.requestBody = {
      ...copy.requestBody,
      content: factorContent(copy.requestBody.content, components),
    };
  }
  copy.responses = mapValues(copy.responses, (response) =>
    isObject(response) && 'content' in response
      ? { ...response, content: factorContent(response.content, components) }
      : response,
  );
  return copy;
}

/** The description with every titled schema written once, under `components.schemas`. */
export function withNamedComponents<T extends Json>(document: T): T & { components: Json } {
  const components = new Components();
  const paths = mapValues(document.paths, (item) =>
    mapValues(item, (operation) => factorOperation(operation, components)),
  );
  const existing = isObject(document.components) ? document.components : {};
  const declared = mapValues(existing.schemas ?? {}, (schema) =>
    isObject(schema) ? withSubschemas(schema, components.factor) : schema,
  );
  const schemas = isObject(declared) ? { ...declared } : {};
  for (const name of [...components.schemas.keys()].sort()) {
    if (name in schemas) throw new Error(`a schema titled "${name}" shadows a registered schema`);
    schemas[name] = components.schemas.get(name);
  }
  return {
    ...document,
    paths,
    components: { ...existing, schemas },
  };
}

/** The name of a shared error response: the codes its description lists, else the catch-all's. */
function errorResponseName(response: Json): string | undefined {
  const description = typeof response.description === 'string' ? response.description : '';
  const codes = description.split(', ').map((part) => /^`([a-z0-9_]+)`$/.exec(part)?.[1]);
  // A longer list is one route's own: a name would be as long as the response.
  if (codes.length <= MAX_NAMED_CODES && codes.every((code) => code !== undefined)) {
    return codes.join('.');
  }
  return description === ERROR_DESCRIPTION ? 'Error' : undefined;
}

const MAX_NAMED_CODES = 3;

/** What the 4XX and 5XX responses of every operation say. */
const ERROR_DESCRIPTION = 'Every error response has this shape.';

/**
 * Error responses that several operations give alike are written once,
 * under `components.responses`, named by the codes they list (`not_found`,
 * `unauthenticated.invalid_token`; the 4XX and 5XX catch-alls are `Error`).
 */
export function withSharedErrorResponses<T extends Json>(document: T): T & { components: Json } {
  const uses = new Map<string, number>();
  const each = (visit: (response: Json, text: string) => unknown) =>
    mapValues(document.paths, (item) =>
      mapValues(item, (operation) =>
        isObject(operation) && isObject(operation.responses)
          ? {
              ...operation,
              responses: mapValues(operation.responses, (response) =>
                isObject(response) ? visit(response, JSON.stringify(response)) : response,
              ),
            }
          : operation,
      ),
    );
  each((_response, text) => uses.set(text, (uses.get(text) ?? 0) + 1));
  const shared: Json = {};
  const paths = each((response, text) => {
    const name = errorResponseName(response);
    const isError = text.includes(`"${COMPONENT_PREFIX}Error"`);
    if (name === undefined || !isError || (uses.get(text) ?? 0) < 2) return response;
    const known = shared[name];
    if (known !== undefined && JSON.stringify(known) !== text) return response;
    shared[name] = response;
    return { $ref: `#/components/responses/${name}` };
  });
  const existing = isObject(document.components) ? document.components : {};
  const responses = Object.fromEntries(
    Object.keys(shared)
      .sort()
      .map((name) => [name, shared[name]]),
  );
  return { ...document, paths, components: { ...existing, responses } };
}
