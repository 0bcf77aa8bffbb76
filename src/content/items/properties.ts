import type { Database } from '../../db/schema.js';
import type { CodeWithStatus } from '../../http/error-codes.js';
import { badRequest } from '../../http/errors.js';
import { UUID_PATTERN } from '../../http/schemas.js';
import type { Registry } from '../fields/registry.js';
import type { Field } from '../fields/schemas.js';
import { existingFileIds } from '../files/service.js';
import { isDateValue } from '../view-compiler/values.js';
import { memberIdsAmong } from '../workspaces/members.js';

const uuid = new RegExp(UUID_PATTERN);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TEXT = 10_000;
const MAX_MULTI = 200;

function refuse(
  code: CodeWithStatus<400>,
  property: string,
  message: string,
  extra: Record<string, unknown> = {},
): Error {
  return badRequest(code, message, { property, ...extra });
}

function wrongType(field: Field, expected: string): Error {
  return refuse(
    'invalid_property_value',
    field.key,
    `Property "${field.key}" (${field.type}) expects ${expected}`,
    {
      expected,
    },
  );
}

function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) && value.length <= 2048;
  } catch {
    return false;
  }
}

function idList(field: Field, value: unknown): string[] {
  if (
    !Array.isArray(value) ||
    value.length > MAX_MULTI ||
    !value.every((item) => typeof item === 'string')
  ) {
    throw wrongType(field, `an array of at most ${MAX_MULTI} ids`);
  }
  return [...new Set(value as string[])];
}

function checkOptions(field: Field, ids: readonly string[]): void {
  const declared = field.config.options ?? [];
  if (declared.length === 0) return;
  const known = new Set(declared.map((option) => option.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) {
    throw refuse(
      'option_not_declared',
      field.key,
      `"${unknown}" is not an option of "${field.key}"`,
      { optionId: unknown },
    );
  }
}

interface References {
  persons: Map<string, string>;
  files: Map<string, string>;
}

/** Checks one value's shape and returns what is stored. */
function normalize(field: Field, value: unknown, references: References): unknown {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string' || value.length > MAX_TEXT)
        throw wrongType(field, `a string of at most ${MAX_TEXT} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(field, 'a number');
      return value;
    case 'checkbox':
      if (typeof value !== 'boolean') throw wrongType(field, 'true or false');
      return value;
    case 'date':
      if (!isDateValue(value))
        throw wrongType(field, 'a date (YYYY-MM-DD) or an ISO 8601 date-time');
      return value.length === 10 ? value : new Date(value).toISOString();
    case 'url':
      if (typeof value !== 'string')
        throw wrongType(field, 'an absolute http, https or mailto URL');
      if (!isAbsoluteUrl(value))
        throw refuse('invalid_url', field.key, 'Expected an absolute http, https or mailto URL');
      return value;
    case 'email':
      if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value)) {
        throw refuse('invalid_email', field.key, 'Expected an e-mail address');
      }
      return value;
    case 'select':
      if (typeof value !== 'string') throw wrongType(field, 'an option id');
      checkOptions(field, [value]);
      return value;
    case 'multi_select': {
      const ids = idList(field, value);
      checkOptions(field, ids);
      return ids;
    }
    case 'person':
      if (typeof value !== 'string' || !uuid.test(value)) throw wrongType(field, 'a user id');
      references.persons.set(value.toLowerCase(), field.key);
      return value.toLowerCase();
    case 'multi_person': {
      const ids = idList(field, value).map((id) => {
        if (!uuid.test(id)) throw wrongType(field, 'an array of user ids');
        references.persons.set(id.toLowerCase(), field.key);
        return id.toLowerCase();
      });
      return [...new Set(ids)];
    }
    case 'file':
      if (typeof value !== 'string' || !uuid.test(value)) throw wrongType(field, 'a file id');
      references.files.set(value.toLowerCase(), field.key);
      return value.toLowerCase();
  }
}

/**
 * Checks properties (keyed by field key) against the registry, members and
 * files, before anything is written. With `allowRemoval`, a null value means
 * "remove this property" and is kept as null; otherwise nulls are dropped.
 */
export async function validateProperties(
  db: Database,
  workspaceId: string,
  registry: Registry,
  input: Record<string, unknown>,
  allowRemoval: boolean,
): Promise<Record<string, unknown>> {
  const references: References = { persons: new Map(), files: new Map() };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = registry.byKey.get(key);
    if (field === undefined) {
      throw refuse('unknown_property', key, `"${key}" is not the key of a field of this workspace`);
    }
    if (value === null) {
      if (allowRemoval) out[key] = null;
      continue;
    }
    out[key] = normalize(field, value, references);
  }
  const members = await memberIdsAmong(db, workspaceId, [...references.persons.keys()]);
  for (const [userId, key] of references.persons) {
    if (!members.has(userId))
      throw refuse('not_a_member', key, 'The user is not a member of this workspace', { userId });
  }
  const files = await existingFileIds(db, workspaceId, [...references.files.keys()]);
  for (const [fileId, key] of references.files) {
    if (!files.has(fileId))
      throw refuse('unknown_file', key, 'The file is not a file of this workspace', { fileId });
  }
  return out;
}

/** Applies validated changes (null removes) to stored properties. */
export function mergeProperties(
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const next = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
