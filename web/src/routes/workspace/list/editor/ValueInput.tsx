import type { Choice } from './choices.js';
import type { Condition, ConditionValue, RelativeRange, ValueShape } from './definition.js';

import { CONTROL } from './styles.js';

const UNITS: RelativeRange['unit'][] = ['days', 'weeks', 'months', 'years'];

interface ValueInputProps {
  condition: Condition;
  shape: ValueShape;
  choices: readonly Choice[];
  /** Names the controls ("Value of condition 2"). */
  label: string;
  onChange: (value: ConditionValue) => void;
}

/** The value of a condition, by what its operator and target take. */
export function ValueInput({ condition, shape, choices, label, onChange }: ValueInputProps) {
  const { value } = condition;
  if (shape === 'none') return null;
  if (shape === 'list') {
    const picked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="flex flex-wrap gap-x-3 gap-y-1">
        <legend className="sr-only">{label}</legend>
        {choices.map((choice) => (
          <label key={choice.value} className="flex items-center gap-1 text-sm">
            <input
              type="checkbox"
              checked={picked.includes(choice.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...picked, choice.value]
                    : picked.filter((entry) => entry !== choice.value),
                )
              }
              className="accent-blue-700"
            />
            {choice.color === undefined ? null : (
              <span
                aria-hidden="true"
                className="size-2 rounded-full"
                style={{ backgroundColor: choice.color }}
              />
            )}
            {choice.label}
          </label>
        ))}
      </fieldset>
    );
  }
  if (shape === 'range') {
    const range =
      typeof value === 'object' && value !== null && 'amount' in value
        ? value
        : { amount: 7, unit: 'days' as const };
    return (
      <span className="flex gap-1">
        <input
          type="number"
          min={1}
          aria-label={`${label}: amount`}
          value={range.amount}
          onChange={(event) => onChange({ ...range, amount: event.target.valueAsNumber || 0 })}
          className={`${CONTROL} w-20`}
        />
        <select
          aria-label={`${label}: unit`}
          value={range.unit}
          onChange={(event) => {
            const unit = UNITS.find((candidate) => candidate === event.target.value);
            if (unit !== undefined) onChange({ ...range, unit });
          }}
          className={CONTROL}
        >
          {UNITS.map((unit) => (
            <option key={unit}>{unit}</option>
          ))}
        </select>
      </span>
    );
  }
  if (shape === 'boolean') {
    return (
      <select
        aria-label={label}
        value={value === false ? 'false' : 'true'}
        onChange={(event) => onChange(event.target.value === 'true')}
        className={CONTROL}
      >
        <option value="true">checked</option>
        <option value="false">not checked</option>
      </select>
    );
  }
  if (shape === 'one') {
    return (
      <select
        aria-label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.target.value)}
        className={CONTROL}
      >
        <option value="">Choose…</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      type={shape === 'number' ? 'number' : shape === 'date' ? 'date' : 'text'}
      aria-label={label}
      value={typeof value === 'string' || typeof value === 'number' ? value : ''}
      onChange={(event) =>
        onChange(
          shape === 'number'
            ? Number.isNaN(event.target.valueAsNumber)
              ? null
              : event.target.valueAsNumber
            : event.target.value,
        )
      }
      className={CONTROL}
    />
  );
}
