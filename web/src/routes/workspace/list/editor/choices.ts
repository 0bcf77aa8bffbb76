import type { Field, Member, Status } from '../../../../api/registry.js';
import type { Target } from './operators.js';

/** A value a person picks from (an option, a status, a member), with its colour when it has one. */
export interface Choice {
  value: string;
  label: string;
  color?: string;
}

export interface Registry {
  fields: readonly Field[];
  statuses: readonly Status[];
  members: readonly Member[];
}

/** The values a target's condition picks from; empty for targets typed freely (text, numbers, dates). */
export function choicesOf(target: Target, registry: Registry): Choice[] {
  const people = () =>
    registry.members.map((member) => ({ value: member.userId, label: member.name }));
  if ('attribute' in target) {
    if (target.attribute === 'statusId') {
      return registry.statuses.map((status) => ({
        value: status.id,
        label: status.name,
        color: status.color,
      }));
    }
    return target.attribute === 'createdBy' ? people() : [];
  }
  const field = registry.fields.find((candidate) => candidate.id === target.fieldId);
  if (field === undefined) return [];
  if (field.type === 'select' || field.type === 'multi_select') {
    return (field.config.options ?? []).map((option) => ({
      value: option.id,
      label: option.label,
      color: option.color,
    }));
  }
  return field.type === 'person' || field.type === 'multi_person' ? people() : [];
}
