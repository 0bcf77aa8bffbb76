import { badRequest } from '../../http/errors.js';
import { UUID_PATTERN } from '../../http/schemas.js';
import {
  type ConditionValue,
  type DefinitionContext,
  MAX_LIST_VALUES,
  type Operator,
  type RelativeRange,
  type Target,
  type ValueKind,
} from './definition.js';

const uuid = new RegExp(UUID_PATTERN);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RANGE_UNITS = ['days', 'weeks', 'months', 'years'] as const;

function invalid(path: string, message: string): Error {
  return badRequest('invalid_value', message, { path });
}

export function isDateValue(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (DATE_ONLY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}

function optionIds(target: Target): Set<string> {
  return new Set(
    target.kind === 'field' ? (target.field.config.options ?? []).map((option) => option.id) : [],
  );
}

/** Checks one scalar against what the target holds. */
function checkScalar(
  value: unknown,
  target: Target,
  context: DefinitionContext,
  path: string,
): string | number | boolean {
  const kind: ValueKind = target.valueKind;
  switch (kind) {
    case 'text':
      if (typeof value !== 'string' || value.length > 1000)
        throw invalid(path, 'Expected a string of at most 1000 characters');
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw invalid(path, 'Expected a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(path, 'Expected true or false');
      return value;
    case 'date':
      if (!isDateValue(value))
        throw invalid(path, 'Expected a date (YYYY-MM-DD) or an ISO 8601 date-time');
      return value;
    case 'option':
    case 'options':
      if (typeof value !== 'string') throw invalid(path, 'Expected an option id');
      if (!optionIds(target).has(value)) {
        throw badRequest('unknown_option', 'The option is not declared by the field', {
          path,
          optionId: value,
        });
      }
      return value;
    case 'status':
      if (typeof value !== 'string' || !uuid.test(value))
        throw invalid(path, 'Expected a status id');
      if (!context.statusIds.has(value)) {
        throw badRequest('unknown_status', 'The status is not a status of this workspace', {
          path,
          statusId: value,
        });
      }
      return value;
    case 'person':
    case 'persons':
    case 'item':
    case 'file':
      if (typeof value !== 'string' || !uuid.test(value))
        throw invalid(path, 'Expected an id (UUID)');
      return value.toLowerCase();
  }
}

function checkRange(value: unknown, path: string): RelativeRange {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(
      path,
      'Expected {"amount": <integer>, "unit": "days" | "weeks" | "months" | "years"}',
    );
  }
  const { amount, unit, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw invalid(path, 'Only "amount" and "unit" are allowed');
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 10_000) {
    throw invalid(`${path}/amount`, 'Expected an integer from 1 to 10000');
  }
  const found = RANGE_UNITS.find((candidate) => candidate === unit);
  if (found === undefined) throw invalid(`${path}/unit`, 'Expected days, weeks, months or years');
  return { amount, unit: found };
}

/** Checks the value a condition carries for its operator and target. */
export function checkValue(
  op: Operator,
  value: unknown,
  target: Target,
  context: DefinitionContext,
  path: string,
): ConditionValue {
  if (op === 'isEmpty' || op === 'isNotEmpty') {
    if (value !== undefined) throw invalid(path, `${op} takes no value`);
    return null;
  }
  if (value === undefined) throw invalid(path, `${op} needs a value`);
  if (op === 'withinLast' || op === 'withinNext') return checkRange(value, path);
  if (['in', 'nin', 'hasAny', 'hasAll', 'hasNone'].includes(op)) {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST_VALUES) {
      throw invalid(path, `${op} needs an array of 1 to ${MAX_LIST_VALUES} values`);
    }
    const checked = value.map((item, index) =>
      checkScalar(item, target, context, `${path}/${index}`),
    );
    return checked as string[] | number[];
  }
  return checkScalar(value, target, context, path);
}
