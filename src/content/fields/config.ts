import { badRequest } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { ConfigInput, FieldConfig, FieldType, SelectOption } from './schemas.js';

/** Which config keys each type accepts. */
const ALLOWED_KEYS: Record<FieldType, readonly (keyof ConfigInput)[]> = {
  text: [],
  number: ['decimals'],
  select: ['options'],
  multi_select: ['options'],
  person: [],
  multi_person: [],
  date: ['includeTime'],
  checkbox: [],
  url: [],
  email: [],
  file: [],
};

export function hasOptions(type: FieldType): boolean {
  return type === 'select' || type === 'multi_select';
}

export function sameLabel(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Checks a config against the field's type and gives new options their ids.
 * An option sent with an id must be one of `previous`'s; labels are unique.
 */
export function normalizeConfig(
  type: FieldType,
  input: ConfigInput | undefined,
  previous: readonly SelectOption[] = [],
): FieldConfig {
  const config = input ?? {};
  const allowed = ALLOWED_KEYS[type];
  for (const key of Object.keys(config)) {
    if (!allowed.includes(key as keyof ConfigInput)) {
      throw badRequest('invalid_config', `A ${type} field has no "${key}" setting`, { key, type });
    }
  }
  if (!hasOptions(type)) {
    const { decimals, includeTime } = config;
    return {
      ...(decimals === undefined ? {} : { decimals }),
      ...(includeTime === undefined ? {} : { includeTime }),
    };
  }
  const known = new Map(previous.map((option) => [option.id, option]));
  const options: SelectOption[] = [];
  for (const [index, option] of (config.options ?? []).entries()) {
    if (option.id !== undefined && !known.has(option.id)) {
      throw badRequest('unknown_option', 'An option id that the field does not have', {
        index,
        id: option.id,
      });
    }
    if (options.some((other) => sameLabel(other.label, option.label))) {
      throw badRequest('duplicate_option', 'Two options have the same label', {
        index,
        label: option.label,
      });
    }
    if (option.id !== undefined && options.some((other) => other.id === option.id)) {
      throw badRequest('duplicate_option', 'An option id appears twice', { index, id: option.id });
    }
    options.push({
      id: option.id ?? newId(),
      label: option.label.trim(),
      color: option.color.toLowerCase(),
    });
  }
  return { options };
}
