import { ERROR_CODES, type ErrorCode, isErrorCode } from '../../src/http/error-codes.js';
import { MAX_JSON_DEPTH } from '../../src/http/json-body.js';
import {
  type Fuzzer,
  mapStrings,
  type Operation,
  randomUuid,
  sample,
  typeOf,
  wrongType,
} from './fuzz-schemas.js';

/**
 * The malformed requests the fuzz test sends each operation, and what makes
 * an answer break the contract.
 */

/** The identity provider's callback takes whatever parameters the provider adds. */
const OPEN_QUERY = new Set(['GET /auth/idp/callback']);
/** Served at the root only, not mirrored under /api. */
const ROOT_ONLY = new Set(['/mcp']);
/** JSON-RPC routes: their own errors are JSON-RPC error objects, not the Error schema. */
const JSON_RPC = new Set(['/mcp']);

function isJsonRpcError(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || !('jsonrpc' in body) || !('error' in body)) {
    return false;
  }
  const error = body.error as Record<string, unknown> | null;
  return (
    body.jsonrpc === '2.0' &&
    error !== null &&
    typeof error.code === 'number' &&
    typeof error.message === 'string'
  );
}

export interface Variant {
  label: string;
  /** Another method than the operation's (HEAD for a GET). */
  method?: 'HEAD';
  /** An answer that may stand for the expected code: the resource is missing, and the route looks it up first. */
  orAsBaseline?: boolean;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  /** The code expected, unless authentication or access answered first (401, 403). */
  code?: ErrorCode;
  /** The code expected whatever the credentials (checks that run before authentication). */
  strictCode?: ErrorCode;
}

export const JSON_TYPE = { 'content-type': 'application/json' };

function fillPath(
  fuzzer: Fuzzer,
  operation: Operation,
  override: Record<string, string> = {},
): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name in override) return override[name] ?? '';
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    if (parameter?.schema.type === 'integer') return '1';
    return encodeURIComponent(
      fuzzer.ids[name] ?? (name === 'name' ? 'main' : randomUuid(fuzzer.random)),
    );
  });
}

function pathVariants(fuzzer: Fuzzer, operation: Operation): Variant[] {
  const names = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  if (names.length === 0) return [];
  const every = (value: () => string) =>
    Object.fromEntries(names.map((name) => [name, value()])) as Record<string, string>;
  const first = names[0] ?? '';
  return [
    {
      label: 'random ids',
      url: fillPath(
        fuzzer,
        operation,
        every(() => randomUuid(fuzzer.random)),
      ),
    },
    {
      label: 'malformed ids',
      url: fillPath(
        fuzzer,
        operation,
        every(() => 'not-a-uuid'),
      ),
    },
    {
      label: 'nil-ish ids',
      url: fillPath(
        fuzzer,
        operation,
        every(() => '0'),
      ),
    },
    {
      label: 'NUL in a path parameter',
      url: fillPath(fuzzer, operation, { [first]: 'a%00b' }),
      strictCode: 'nul_character',
    },
    {
      label: 'huge path parameter',
      url: fillPath(fuzzer, operation, { [first]: 'x'.repeat(600) }),
    },
    {
      label: 'encoded slash and dots',
      url: fillPath(fuzzer, operation, { [first]: '..%2F..%2Fetc' }),
    },
  ];
}

function queryVariants(fuzzer: Fuzzer, operation: Operation): Variant[] {
  const base = fillPath(fuzzer, operation);
  const key = `${operation.method} ${operation.path}`;
  const variants: Variant[] = [
    {
      label: 'unknown query parameter',
      url: `${base}?zz_unknown=1`,
      ...(OPEN_QUERY.has(key) ? {} : { code: 'validation_failed', orAsBaseline: true }),
    },
    {
      label: 'NUL in an unknown query parameter',
      url: `${base}?a%00=1`,
      strictCode: 'nul_character',
    },
  ];
  const strict: Pick<Variant, 'code' | 'orAsBaseline'> = OPEN_QUERY.has(key)
    ? {}
    : { code: 'validation_failed', orAsBaseline: true };
  if (!operation.path.startsWith('/api/') && !ROOT_ONLY.has(operation.path)) {
    variants.push({ label: 'unknown query parameter at /api', url: `/api${base}?zz=1`, ...strict });
  }
  if (operation.method === 'GET') {
    variants.push({
      label: 'HEAD with an unknown query parameter',
      method: 'HEAD',
      url: `${base}?zz=1`,
      ...strict,
    });
  }
  for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
    const name = encodeURIComponent(parameter.name);
    variants.push(
      {
        label: `NUL in ${parameter.name}`,
        url: `${base}?${name}=a%00b`,
        strictCode: 'nul_character',
      },
      { label: `huge ${parameter.name}`, url: `${base}?${name}=${'x'.repeat(20_000)}` },
      { label: `repeated ${parameter.name}`, url: `${base}?${name}=1&${name}=2` },
      { label: `empty ${parameter.name}`, url: `${base}?${name}=` },
    );
    if (typeOf(parameter.schema) !== 'string') {
      variants.push({
        label: `wrong type for ${parameter.name}`,
        url: `${base}?${name}=not-valid`,
      });
    }
  }
  return variants;
}

function jsonVariant(label: string, url: string, body: unknown, code?: ErrorCode): Variant {
  return { label, url, headers: JSON_TYPE, payload: JSON.stringify(body), code };
}

function bodyVariants(fuzzer: Fuzzer, operation: Operation): Variant[] {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method)) return [];
  const url = fillPath(fuzzer, operation);
  const deep = `${'{"a":'.repeat(MAX_JSON_DEPTH + 40)}1${'}'.repeat(MAX_JSON_DEPTH + 40)}`;
  const variants: Variant[] = [
    { label: 'bad JSON', url, headers: JSON_TYPE, payload: '{"a": [1, 2', code: 'invalid_json' },
    { label: 'deep nesting', url, headers: JSON_TYPE, payload: deep, code: 'json_too_deep' },
    {
      label: 'NUL in a key',
      url,
      headers: JSON_TYPE,
      payload: '{"a\\u0000":1}',
      code: 'nul_character',
    },
    { label: 'empty JSON body', url, headers: JSON_TYPE, payload: '' },
    { label: 'JSON null', url, headers: JSON_TYPE, payload: 'null' },
    { label: 'JSON array', url, headers: JSON_TYPE, payload: '[]' },
    { label: 'JSON string', url, headers: JSON_TYPE, payload: '"text"' },
    { label: 'text body', url, headers: { 'content-type': 'text/plain' }, payload: 'hello' },
    { label: 'XML body', url, headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
    { label: 'no content type', url, payload: '{"a":1}' },
  ];
  const schema = operation.requestBody?.content['application/json']?.schema;
  if (schema === undefined) return variants;
  const minimal = sample(fuzzer, schema);
  const full = sample(fuzzer, schema, '', true);
  variants.push(
    jsonVariant('sample body', url, minimal),
    jsonVariant('full sample body', url, full),
    jsonVariant(
      'huge strings',
      url,
      mapStrings(full, () => 'x'.repeat(20_000)),
    ),
    jsonVariant(
      'emoji and controls',
      url,
      mapStrings(full, () => '\u{1F600}\u0001\u001f\u2028\uFFFF'),
    ),
    jsonVariant(
      'lone surrogates',
      url,
      mapStrings(full, () => 'a\uD800b'),
    ),
    jsonVariant('empty object', url, {}),
    jsonVariant('unknown property', url, { ...(full as object), zzUnknown: true }),
  );
  const withNul = mapStrings(full, (text) => `${text}\u0000`);
  if (JSON.stringify(withNul) !== JSON.stringify(full)) {
    variants.push(jsonVariant('NUL in every string', url, withNul, 'nul_character'));
  }
  const properties = Object.entries(schema.properties ?? {}).slice(0, 8);
  for (const [name, inner] of properties) {
    const withValue = (label: string, value: unknown) =>
      jsonVariant(`${name} ${label}`, url, { ...(minimal as object), [name]: value });
    variants.push(withValue('of a wrong type', wrongType(inner)), withValue('null', null));
    // Values the schema accepts at its edges, to reach the service and the database.
    const type = typeOf(inner);
    if (type === 'integer' || type === 'number') {
      variants.push(withValue('huge', 1e308), withValue('below any int', -2147483649));
      if (inner.maximum !== undefined) variants.push(withValue('at its maximum', inner.maximum));
      if (inner.minimum !== undefined) variants.push(withValue('at its minimum', inner.minimum));
    }
    if (type === 'string' && inner.format === undefined && inner.enum === undefined) {
      const longest = Math.min(inner.maxLength ?? 10_000, 200_000);
      variants.push(
        withValue('at its longest', 'x'.repeat(longest)),
        withValue('with a lone surrogate', 'a\uD800b'),
        withValue('of blanks', ' \t '),
      );
    }
  }
  return variants;
}

function multipartVariants(fuzzer: Fuzzer, operation: Operation): Variant[] {
  if (operation.requestBody?.content['multipart/form-data'] === undefined) return [];
  const url = fillPath(fuzzer, operation);
  const type = { 'content-type': 'multipart/form-data; boundary=XX' };
  const part = (filename: string) =>
    `--XX\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`;
  return [
    {
      label: 'multipart without boundary',
      url,
      headers: { 'content-type': 'multipart/form-data' },
      payload: `${part('a.txt')}hi\r\n--XX--\r\n`,
      code: 'invalid_multipart',
    },
    {
      label: 'multipart cut short',
      url,
      headers: type,
      payload: `${part('a.txt')}hi`,
      code: 'invalid_multipart',
    },
    {
      label: 'NUL in a file name',
      url,
      headers: type,
      payload: `${part('a\u0000.txt')}hi\r\n--XX--\r\n`,
      code: 'nul_character',
    },
    { label: 'empty multipart', url, headers: type, payload: '--XX--\r\n', code: 'file_missing' },
    { label: 'garbage multipart', url, headers: type, payload: 'not multipart at all' },
  ];
}

function formVariants(fuzzer: Fuzzer, operation: Operation): Variant[] {
  if (operation.requestBody?.content['application/x-www-form-urlencoded'] === undefined) return [];
  const url = fillPath(fuzzer, operation);
  const type = { 'content-type': 'application/x-www-form-urlencoded' };
  return [
    { label: 'NUL in a form', url, headers: type, payload: 'code=a%00b', code: 'nul_character' },
    { label: 'garbage form', url, headers: type, payload: '%%%&&&===' },
    { label: 'empty form', url, headers: type, payload: '' },
  ];
}

/** The malformed requests of one operation. */
export function variantsOf(fuzzer: Fuzzer, operation: Operation): Variant[] {
  return [
    { label: 'plain request', url: fillPath(fuzzer, operation) },
    ...pathVariants(fuzzer, operation),
    ...queryVariants(fuzzer, operation),
    ...bodyVariants(fuzzer, operation),
    ...multipartVariants(fuzzer, operation),
    ...formVariants(fuzzer, operation),
  ];
}

/** Why an answer breaks the contract, or null. */
export function problemWith(
  operation: Operation,
  variant: Variant,
  baseline: number,
  status: number,
  text: string,
  type: string,
) {
  if (status >= 500) {
    if (status === 500 || !Object.hasOwn(operation.responses, String(status))) {
      return `undocumented ${status}: ${text.slice(0, 300)}`;
    }
  }
  if (variant.method === 'HEAD') {
    // No body to read: the status must be the one the code comes with.
    const expected = variant.code === undefined ? undefined : ERROR_CODES[variant.code].status;
    const fine = expected === undefined || status === expected || status === baseline;
    return fine ? null : `HEAD answered ${status}, expected ${expected}`;
  }
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${status} without a JSON body (${type}): ${text.slice(0, 200)}`;
    }
    if (JSON_RPC.has(operation.path) && isJsonRpcError(body)) return null;
    const error = (body as { error?: Record<string, unknown> } | null)?.error;
    const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
    if (
      error === undefined ||
      keys.length !== 1 ||
      typeof error.code !== 'string' ||
      typeof error.message !== 'string' ||
      Object.keys(error).some((key) => !['code', 'message', 'details'].includes(key))
    ) {
      return `${status} body is not the Error schema: ${text.slice(0, 200)}`;
    }
    if (!isErrorCode(error.code)) return `${status} with a code outside the catalog: ${error.code}`;
    if (ERROR_CODES[error.code].status !== status) {
      return `${status} with ${error.code}, which the catalog gives ${ERROR_CODES[error.code].status}`;
    }
    if (variant.strictCode !== undefined && error.code !== variant.strictCode) {
      return `${status} ${error.code}, expected ${variant.strictCode}`;
    }
    // Authentication and access come first; some routes look their resource up before validating.
    const answeredFirst =
      status === 401 || status === 403 || (variant.orAsBaseline === true && status === baseline);
    if (variant.code !== undefined && error.code !== variant.code && !answeredFirst) {
      return `${status} ${error.code}, expected ${variant.code}`;
    }
    return null;
  }
  if (variant.strictCode !== undefined || variant.code !== undefined) {
    return `${status}, expected an error ${variant.strictCode ?? variant.code}`;
  }
  return null;
}
