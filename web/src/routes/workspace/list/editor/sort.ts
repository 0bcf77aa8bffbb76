import type { EditableDefinition, SortKey } from './definition.js';
import { sameTarget, type Target } from './operators.js';

/** Adds a sort key last; a target already sorted on is not added twice. */
export function addSort(definition: EditableDefinition, target: Target): EditableDefinition {
  if (definition.sort.some((key) => sameTarget(key.target, target))) return definition;
  return { ...definition, sort: [...definition.sort, { target, direction: 'asc' }] };
}

export function removeSort(definition: EditableDefinition, index: number): EditableDefinition {
  return { ...definition, sort: definition.sort.filter((_, at) => at !== index) };
}

export function changeSort(
  definition: EditableDefinition,
  index: number,
  change: Partial<SortKey>,
): EditableDefinition {
  return {
    ...definition,
    sort: definition.sort.map((key, at) => (at === index ? { ...key, ...change } : key)),
  };
}
